// The game a phone's card shows: which game it is, the values being typed (kept in the phone),
// who plays it, and the values as the server takes them when the game is entered or deleted.
import { kindOf } from "./table-words.js";

export function currentGame(app) {
  const local = app.local;
  if (app.server.locked || Object.keys(local.conflicts).length) return null;
  if (local.current && local.current <= app.server.games.length) return local.current;
  return app.nextGame();
}

export function emptyGame(app) {
  return { kind: app.server.kinds[0].value, declarer: "", bid: "", dealer: "", notrick: false,
    columns: app.server.columns.map(function () {
      return { meld: "", tricks: "", revoked: false, penalty: "" };
    }) };
}

export function editable(values) {  // the card's inputs hold text; the server sends numbers
  const copy = JSON.parse(JSON.stringify(values));
  ["declarer", "bid", "dealer"].forEach(function (f) { copy[f] = copy[f] === null || copy[f] === undefined ? "" : String(copy[f]); });
  copy.columns.forEach(function (c) {
    ["meld", "tricks", "penalty"].forEach(function (f) { c[f] = c[f] === null || c[f] === undefined ? "" : String(c[f]); });
  });
  return copy;
}

export function draftOf(app, n) {
  const local = app.local;
  if (!local.drafts[n]) {
    local.drafts[n] = editable(app.gameShown(n) || emptyGame(app));
    // the state this card is typed on: what the server had when it was opened
    if (!app.outbox.pendingGame(n)) local.bases[n] = app.server.games[n - 1].stamp;
  }
  return local.drafts[n];
}

export function playing(app, n) {
  const out = app.server.games[n - 1].sits_out;
  return app.server.columns.filter(function (c) { return c.number !== out; });
}

export function dealerNeeded(app, n) {  // a pair table after a Durch: who of the pair played it deals
  const notes = app.server.games[n - 1].notes || [];
  return app.server.kind === "pairs" && notes.length > 0;
}

export function shownInput(value) { return value === null || value === undefined ? "" : String(value); }

export function typedNumber(value) {  // what the server takes: a whole number, or nothing
  const text = shownInput(value).trim();
  if (text === "") return null;
  return /^-?[0-9]{1,9}$/.test(text) ? parseInt(text, 10) : text;
}

export function stripped(app, game) {
  const copy = JSON.parse(JSON.stringify(game));
  copy.columns.forEach(function (c) { delete c.auto; });
  const kind = kindOf(app, copy.kind);
  copy.columns.forEach(function (c) {
    if (!kind.melds) c.meld = "";
    if (!kind.tricks) { c.tricks = ""; c.revoked = false; }
    c.meld = typedNumber(c.meld);
    c.tricks = typedNumber(c.tricks);
    c.penalty = typedNumber(c.penalty);
    c.revoked = !!c.revoked;
  });
  if (!kind.tricks) copy.notrick = false;
  copy.notrick = !!copy.notrick;
  copy.declarer = typedNumber(copy.declarer);
  copy.bid = typedNumber(copy.bid);
  copy.dealer = typedNumber(copy.dealer);
  return copy;
}

export function saveGame(app, n) {
  const game = stripped(app, draftOf(app, n));
  const sitsOut = app.server.games[n - 1].sits_out;
  if (sitsOut) { game.columns[sitsOut - 1] = { meld: null, tricks: null, revoked: false, penalty: null }; }
  delete app.local.drafts[n];
  delete app.checked[n];
  app.local.current = null;
  app.outbox.queueGame(n, game, false);
  window.scrollTo(0, 0);
}

export function deleteGame(app, n) {  // explicit and confirmed: the second tap deletes
  delete app.local.drafts[n];
  delete app.checked[n];
  app.local.current = null;
  app.outbox.queueGame(n, null, true);
  window.scrollTo(0, 0);
}
