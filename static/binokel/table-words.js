// What others changed (the desk, the table's other phone), said in words on the phone, and one
// game of the sheet described in a few words (for the notices and the conflict's choice).
import { el, fmt, shown } from "./table-util.js";

export function columnName(app, c) {
  const col = app.server.columns[c - 1];
  return col ? col.name : String(c);
}

export function kindOf(app, value) {
  return app.server.kinds.filter(function (k) { return k.value === value; })[0] || app.server.kinds[0];
}

export function describeValue(app, field, value) {
  if (field === "kind") return kindOf(app, value).label;
  if (field === "declarer") return value ? columnName(app, Number(value)) : "–";
  if (typeof value === "boolean") return value ? app.T.yes : app.T.no;
  return shown(value);
}

function differences(app, before, after) {
  const T = app.T;
  const parts = [];
  [["kind", T.kind], ["declarer", T.declarer], ["bid", T.bid], ["dealer", T.dealer], ["notrick", T.notrick]].forEach(function (f) {
    if (shown(before[f[0]]) !== shown(after[f[0]])) {
      parts.push(f[1] + " " + describeValue(app, f[0], before[f[0]]) + " → " + describeValue(app, f[0], after[f[0]]));
    }
  });
  (after.columns || []).forEach(function (column, i) {
    const old = (before.columns || [])[i] || {};
    [["meld", T.meld], ["tricks", T.tricks], ["penalty", T.penalty], ["revoked", T.revoked]].forEach(function (f) {
      if (shown(old[f[0]]) !== shown(column[f[0]])) {
        parts.push(f[1] + " " + columnName(app, i + 1) + " " + describeValue(app, f[0], old[f[0]]) + " → " + describeValue(app, f[0], column[f[0]]));
      }
    });
  });
  return parts;
}

function who(by) { return by === "table" ? "phone" : "desk"; }

// game numbers in a few words: [1, 2, 3, 4, 5] → "1–5", [1, 3] → "1 und 3", [1, 2, 3, 7] → "1–3 und 7"
export function gameNumbers(T, numbers) {
  const sorted = numbers.slice().sort(function (a, b) { return a - b; });
  const runs = [];
  sorted.forEach(function (n) {
    const last = runs[runs.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else if (!last || n !== last[1]) runs.push([n, n]);
  });
  const parts = [];
  runs.forEach(function (run) {
    if (run[0] === run[1]) parts.push(String(run[0]));
    else if (run[1] === run[0] + 1) parts.push(String(run[0]), String(run[1]));
    else parts.push(run[0] + "–" + run[1]);
  });
  if (parts.length < 2) return parts.join("");
  return parts.slice(0, -1).join(", ") + " " + T.and + " " + parts[parts.length - 1];
}

// One notice says what one writer (the other phone, the desk) did to one or more games: "added",
// "removed" (which games) or "changed" (which games, and for each what changed).
function noticeText(app, notice) {
  const T = app.T;
  if (notice.text) return notice.text;  // kept by an earlier version of this page
  const games = notice.games;
  const key = notice.kind + "_" + notice.by;
  if (notice.kind !== "changed") {
    return games.length === 1 ? fmt(T[key], { n: games[0] }) : fmt(T[key + "_many"], { games: gameNumbers(T, games) });
  }
  if (games.length === 1) return fmt(T[key], { n: games[0], what: notice.what[games[0]] });
  return fmt(T[key + "_many"], { games: gameNumbers(T, games), what: games.map(function (n) {
    return fmt(T.game_what, { n: n, what: notice.what[n] });
  }).join("; ") });
}

function describeChange(app, before, after) {
  if (!before && !after) return null;
  if (!after) return { kind: "removed" };
  if (!before) return { kind: "added" };
  return { kind: "changed", what: differences(app, before, after).join("; ") || "–" };
}

// Note in words what changed on the server since the phone last knew it (``own``: the game of
// the phone's own answer, not news). What one writer did while the phone was away is one line
// ("Ein anderes Handy hat die Spiele 1–5 eingetragen."), not a line per game: games entered or
// deleted join an unseen notice of the same writer; the changes found at one look are one line.
// A game in conflict is told by its conflict card, not again as news.
export function noticeChanges(app, own) {
  const local = app.local;
  const first = !local.known;
  local.known = local.known || {};
  const found = [];
  app.server.games.forEach(function (game) {
    const n = game.number;
    const before = local.known[n] || { stamp: "", values: null };
    if (game.stamp === before.stamp) return;
    // a step of this phone for the game is on its way: its answer tells (it may be ours)
    if (n !== own && local.outbox.some(function (s) { return s.type === "game" && s.number === n; })) return;
    const values = game.stamp ? game.values : null;
    if (!first && n !== own && !local.conflicts[n]) {
      const change = describeChange(app, before.values, values);
      if (change) found.push(Object.assign({ game: n, by: who(game.by) }, change));
    }
    local.known[n] = { stamp: game.stamp, values: values };
  });
  const looked = {};  // this look's changes of one writer: one notice
  found.forEach(function (change) {
    const key = change.kind + "_" + change.by;
    // games entered or deleted join an unseen notice of the same writer; a change seen now is
    // told with what changed now
    let notice = looked[key] || (change.kind === "changed" ? null : local.notices.filter(function (old) {
      return old.kind === change.kind && old.by === change.by && old.games;
    })[0]);
    if (!notice) {
      notice = { kind: change.kind, by: change.by, games: [], what: {} };
      local.notices.push(notice);
    }
    looked[key] = notice;
    if (notice.games.indexOf(change.game) < 0) notice.games.push(change.game);
    notice.games.sort(function (x, y) { return x - y; });
    if (change.what) notice.what[change.game] = change.what;
  });
  app.save();
}

export function renderNotices(app) {
  const local = app.local;
  const box = document.getElementById("notices");
  box.textContent = "";
  box.hidden = !local.notices.length;
  if (!local.notices.length) return;
  local.notices.forEach(function (notice) {
    const games = notice.games || [notice.game];
    box.appendChild(el("p", { "class": "notice", "data-game": games.length === 1 ? games[0] : null,
      "data-games": games.join(" "), text: noticeText(app, notice) }));
  });
  box.appendChild(el("button", { type: "button", id: "notices-seen", text: app.T.seen, on: { click: function () {
    local.notices = []; app.save(); app.render();
  } } }));
}

// one version of a game in a few words, for the choice between two versions
export function describeGame(app, values) {
  const T = app.T;
  if (!values) return [T.deleted];
  const lines = [describeValue(app, "kind", values.kind) + " · " + T.declarer + " " + describeValue(app, "declarer", values.declarer) +
    " · " + T.bid + " " + shown(values.bid)];
  const kind = kindOf(app, values.kind);
  (values.columns || []).forEach(function (column, i) {
    const bits = [];
    if (kind.melds) bits.push(T.meld + " " + shown(column.meld));
    if (kind.tricks) bits.push(T.tricks + " " + shown(column.tricks));
    if (column.revoked) bits.push(T.revoked);
    if (bits.length) lines.push(columnName(app, i + 1) + ": " + bits.join(", "));
  });
  return lines;
}
