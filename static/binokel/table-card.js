// The card of the game being typed: one card for one game, checked by the server (the engine) while it is
// typed, sent through the outbox when it is entered. A reply or a refresh while somebody types
// never rebuilds the card under their fingers.
import { el, fmt, points } from "./table-util.js";
import { kindOf } from "./table-words.js";
import {
  currentGame, dealerNeeded, deleteGame, draftOf, playing, saveGame, shownInput, stripped,
} from "./table-game.js";

function cardShape(app, n) {
  return JSON.stringify([n, draftOf(app, n).kind, dealerNeeded(app, n), app.server.games[n - 1].sits_out,
    app.local.refused[n] || null]);
}

export function renderCard(app, force) {
  const T = app.T;
  const box = document.getElementById("card");
  const n = currentGame(app);
  box.hidden = !n;
  if (!n) { box.textContent = ""; return; }
  const draft = draftOf(app, n);
  const kind = kindOf(app, draft.kind);
  const game = app.server.games[n - 1];
  const refused = app.local.refused[n];
  const answer = app.checked[n];
  const messages = (refused && refused.messages) || (answer && answer.messages) || {};
  const pendingBefore = app.local.outbox.some(function (s) { return s.type === "game" && s.number < n; });
  const dealerText = pendingBefore ? T.dealer_later : T.dealer + ": " + game.dealer_name;
  const shape = cardShape(app, n);
  const shownCard = document.getElementById("game-card");
  if (!force && shownCard && shownCard.dataset.shape === shape) {
    shownCard.querySelector("#dealer").textContent = dealerText;
    const checking = shownCard.querySelector("#check-state");
    if (app.outbox.connection !== "ok") checking.textContent = T.check_later;
    else if (checking.textContent === T.check_later) checking.textContent = answer ? "" : T.checking;
    return;
  }
  box.textContent = "";
  const card = el("div", { "class": "card", id: "game-card", "data-game": n, "data-shape": shape });
  card.appendChild(el("h2", { text: T.game + " " + n }));
  card.appendChild(el("p", { "class": "muted", id: "dealer", text: dealerText }));
  if (dealerNeeded(app, n)) {
    const select = el("select", { "data-field": "dealer", "aria-label": T.dealer_choose }, [el("option", { value: "", text: "–" })]
      .concat(app.server.chairs.map(function (chair) {
        return el("option", { value: String(chair.seat), selected: String(draft.dealer) === String(chair.seat),
          text: chair.name + " (" + chair.start_number + ")" });
      })));
    select.addEventListener("change", function () { draft.dealer = select.value; typed(app, n); });
    card.appendChild(el("label", { "class": "field" }, [T.dealer_choose, select]));
  }
  // declarer: one button per playing party
  card.appendChild(el("div", { "class": "field muted", text: T.declarer }));
  const who = el("div", { "class": "choices", role: "group", "aria-label": T.declarer });
  playing(app, n).forEach(function (column) {
    who.appendChild(el("button", { type: "button", "data-declarer": column.number,
      "aria-pressed": String(draft.declarer) === String(column.number) ? "true" : "false",
      text: column.name, on: { click: function () { draft.declarer = String(column.number); typed(app, n, true); } } }));
  });
  card.appendChild(who);
  addMessages(card, messages, ["declarer"]);
  // kind: one button per kind the rule set plays
  const kinds = el("div", { "class": "choices kinds", role: "group", "aria-label": T.kind });
  app.server.kinds.forEach(function (k) {
    kinds.appendChild(el("button", { type: "button", "data-kind": k.value,
      "aria-pressed": draft.kind === k.value ? "true" : "false", text: k.label,
      on: { click: function () { draft.kind = k.value; typed(app, n, true); } } }));
  });
  card.appendChild(kinds);
  addMessages(card, messages, ["kind"]);
  card.appendChild(numberField(app, n, T.bid, draft, "bid", null, messages["bid"]));
  addMessages(card, messages, ["bid"]);
  playing(app, n).forEach(function (column, index, all) {
    const values = draft.columns[column.number - 1];
    const party = el("div", { "class": "party", "data-column": column.number });
    const preview = answer && answer.points ? points(answer.points[column.number - 1]) : "";
    party.appendChild(el("h3", {}, [el("span", { text: column.name }), el("span", { "class": "preview", "data-preview": column.number, text: preview })]));
    const grid = el("div", { "class": "pair" + (app.server.penalties ? " three" : "") });
    const prefix = "columns." + column.number + ".";
    if (kind.melds) grid.appendChild(numberField(app, n, T.meld, values, "meld", column.number, messages[prefix + "meld"]));
    if (kind.tricks) {
      const tricks = numberField(app, n, T.tricks, values, "tricks", column.number, messages[prefix + "tricks"]);
      if (index === all.length - 1) tricks.querySelector("input").dataset.last = "1";
      grid.appendChild(tricks);
    }
    if (app.server.penalties) grid.appendChild(numberField(app, n, T.penalty, values, "penalty", column.number, messages[prefix + "penalty"]));
    party.appendChild(grid);
    if (kind.tricks) {
      const revoked = el("input", { type: "checkbox", checked: !!values.revoked, "data-field": "revoked", "data-column": column.number });
      revoked.addEventListener("change", function () { values.revoked = revoked.checked; typed(app, n); });
      party.appendChild(el("label", { "class": "toggle" }, [revoked, T.revoked]));
    }
    addMessages(party, messages, [prefix + "meld", prefix + "tricks", prefix + "penalty", prefix + "took_trick"]);
    card.appendChild(party);
  });
  if (kind.tricks) {
    const notrick = el("input", { type: "checkbox", checked: !!draft.notrick, "data-field": "notrick" });
    notrick.addEventListener("change", function () { draft.notrick = notrick.checked; typed(app, n); });
    card.appendChild(el("label", { "class": "toggle" }, [notrick, T.notrick]));
  }
  addMessages(card, messages, ["columns", "revoked", "dealer", ""]);
  if (refused && refused.message && !Object.keys(refused.messages || {}).length) {
    card.appendChild(el("p", { "class": "problem", text: T.refused + " " + refused.message }));
  }
  const notes = el("div", { id: "notes" });
  (answer && answer.notes || []).forEach(function (note) { notes.appendChild(el("p", { "class": "note", text: note })); });
  card.appendChild(notes);
  card.appendChild(el("p", { "class": "muted", id: "check-state",
    text: app.outbox.connection === "ok" ? (answer ? "" : T.checking) : T.check_later }));
  card.appendChild(el("button", { type: "button", "class": "primary", id: "save-game",
    text: fmt(T.save_game, { n: n }), on: { click: function () { saveGame(app, n); } } }));
  if (app.gameShown(n)) {
    const remove = el("button", { type: "button", id: "delete-game", "class": "danger", text: fmt(T.delete_game, { n: n }) });
    remove.addEventListener("click", function () {
      if (remove.dataset.sure === "1") { deleteGame(app, n); return; }
      remove.dataset.sure = "1";
      remove.textContent = fmt(T.delete_sure, { n: n });
    });
    card.appendChild(remove);
  }
  box.appendChild(card);
}

function numberField(app, n, label, values, name, column, problems) {
  const input = el("input", { inputmode: "numeric", pattern: "-?[0-9]*", autocomplete: "off",
    "data-field": name, "data-column": column || null, value: shownInput(values[name]),
    "class": problems && problems.length ? "bad" : null,
    "aria-label": label + (column ? " " + app.server.columns[column - 1].name : "") });
  input.addEventListener("input", function () {
    values[name] = input.value.trim();
    if (name === "tricks") autofill(app, n, input);
    typed(app, n);
  });
  return el("label", { "class": "field" }, [label, input]);
}

function addMessages(node, messages, fields) {
  const list = el("ul", { "class": "messages", "data-for": fields.join(" ") });
  fillMessages(list, messages);
  node.appendChild(list);
}

function fillMessages(list, messages) {
  list.textContent = "";
  list.dataset.for.split(" ").forEach(function (f) {
    (messages[f] || []).forEach(function (m) { list.appendChild(el("li", { text: m })); });
  });
  list.hidden = !list.childNodes.length;
}

function applyAnswer(app, n) {  // the server's check of the card, shown without redrawing inputs
  const card = document.getElementById("game-card");
  if (!card || Number(card.dataset.game) !== n) return;
  const answer = app.checked[n] || {};
  const messages = answer.messages || {};
  card.querySelectorAll("ul.messages").forEach(function (list) { fillMessages(list, messages); });
  card.querySelectorAll("input[data-field]").forEach(function (input) {
    const name = input.dataset.column ? "columns." + input.dataset.column + "." + input.dataset.field
      : input.dataset.field;
    input.classList.toggle("bad", !!(messages[name] && messages[name].length));
  });
  card.querySelectorAll("[data-preview]").forEach(function (span) {
    const column = Number(span.dataset.preview);
    span.textContent = answer.points ? points(answer.points[column - 1]) : "";
  });
  const notes = card.querySelector("#notes");
  notes.textContent = "";
  (answer.notes || []).forEach(function (note) { notes.appendChild(el("p", { "class": "note", text: note })); });
  const state = card.querySelector("#check-state");
  if (state) state.textContent = "";
}

function autofill(app, n, changed) {  // the last party's Stiche: all eyes minus the others'
  const draft = draftOf(app, n);
  const columns = playing(app, n);
  const last = draft.columns[columns[columns.length - 1].number - 1];
  if (changed.dataset.last === "1") { last.auto = false; return; }
  if (last.tricks !== "" && !last.auto) return;
  let sum = 0;
  for (let i = 0; i < columns.length - 1; i++) {
    const v = parseInt(draft.columns[columns[i].number - 1].tricks, 10);
    if (isNaN(v)) return;
    sum += v;
  }
  last.tricks = String(app.server.total_eyes - sum);
  last.auto = true;
  const input = document.querySelector('#game-card input[data-field="tricks"][data-last="1"]');
  if (input) input.value = last.tricks;
}

function typed(app, n, redraw) {
  delete app.local.refused[n];
  app.local.current = n;  // whoever types a game stays on it, whatever arrives meanwhile
  app.save();
  const shownCard = document.getElementById("game-card");
  if (shownCard && !redraw) shownCard.dataset.shape = cardShape(app, n);  // the check's answer replaces the reasons
  if (redraw) {
    const focus = document.activeElement && document.activeElement.dataset;
    renderCard(app, true);
    if (focus && focus.field) {
      const again = document.querySelector('#game-card [data-field="' + focus.field + '"]' +
        (focus.column ? '[data-column="' + focus.column + '"]' : ""));
      if (again) again.focus();
    }
  }
  scheduleCheck(app, n);
}

let checkSeq = 0;
let checkTimer = null;

export function scheduleCheck(app, n) {
  if (checkTimer) window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(function () { runCheck(app, n); }, 400);
}

function runCheck(app, n) {
  const seq = ++checkSeq;
  const draft = draftOf(app, n);
  app.outbox.request("pruefen/", { number: n, game: stripped(app, draft), seq: seq }).then(function (response) {
    return response.json();
  }).then(function (answer) {
    if (!answer || !answer.ok || seq !== checkSeq) return;  // an older answer: ignore
    app.checked[n] = answer.game;
    if (currentGame(app) === n) applyAnswer(app, n);
  }).catch(function () {
    const state = document.getElementById("check-state");
    if (state) state.textContent = app.T.check_later;
  });
}

