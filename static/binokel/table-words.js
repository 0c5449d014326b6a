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

function describeChange(app, n, by, before, after) {
  const T = app.T;
  if (!before && !after) return "";
  if (!after) return fmt(T["removed_" + who(by)], { n: n });
  if (!before) return fmt(T["added_" + who(by)], { n: n });
  return fmt(T["changed_" + who(by)], { n: n, what: differences(app, before, after).join("; ") || "–" });
}

// Note in words what changed on the server since the phone last knew it (``own``: the game of
// the phone's own answer, not news).
export function noticeChanges(app, own) {
  const local = app.local;
  const first = !local.known;
  local.known = local.known || {};
  app.server.games.forEach(function (game) {
    const n = game.number;
    const before = local.known[n] || { stamp: "", values: null };
    if (game.stamp === before.stamp) return;
    // a step of this phone for the game is on its way: its answer tells (it may be ours)
    if (n !== own && local.outbox.some(function (s) { return s.type === "game" && s.number === n; })) return;
    const values = game.stamp ? game.values : null;
    if (!first && n !== own) {
      const text = describeChange(app, n, game.by, before.values, values);
      if (text) local.notices.push({ game: n, text: text });
    }
    local.known[n] = { stamp: game.stamp, values: values };
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
    box.appendChild(el("p", { "class": "notice", "data-game": notice.game, text: notice.text }));
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
