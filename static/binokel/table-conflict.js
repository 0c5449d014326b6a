// The conflict card: a game this phone saved was changed meanwhile by someone else (the desk,
// the other phone). Both versions are shown; the person keeps theirs (sent again on the
// stored state) or the stored one. Afterwards the phone offers the next game.
import { el, fmt } from "./table-util.js";
import { describeGame } from "./table-words.js";

let shown = null;  // the game whose conflict card is on the page

export function renderConflict(app) {
  const T = app.T;
  const local = app.local;
  const box = document.getElementById("conflict");
  box.textContent = "";
  const numbers = Object.keys(local.conflicts);
  box.hidden = !numbers.length;
  if (!numbers.length) {
    shown = null;
    return;
  }
  const n = Number(numbers[0]);
  const conflict = local.conflicts[n];
  const card = el("div", { "class": "card conflict", id: "conflict-card", "data-game": n },
    [el("h2", { text: fmt(T.conflict_title, { n: n }) }), el("p", { "class": "problem", text: conflict.message })]);
  const theirs = el("div", { "class": "version theirs" }, [el("h3", { text: conflict.by === "desk" ? T.theirs_desk : T.theirs_phone })]
    .concat(describeGame(app, conflict.theirs).map(function (line) { return el("p", { text: line }); })));
  const mine = el("div", { "class": "version mine" }, [el("h3", { text: T.mine })]
    .concat(describeGame(app, conflict.mine).map(function (line) { return el("p", { text: line }); })));
  card.appendChild(theirs);
  card.appendChild(mine);
  card.appendChild(el("button", { type: "button", "class": "primary", id: "keep-mine", text: T.keep_mine, on: { click: function () {
    delete local.conflicts[n];
    local.current = null;  // once sent, the card moves on to the next game
    app.queue({ type: "game", number: n, game: conflict.mine, remove: !conflict.mine, base: conflict.stamp });
  } } }));
  card.appendChild(el("button", { type: "button", id: "keep-theirs", text: T.keep_theirs, on: { click: function () {
    delete local.conflicts[n];
    local.current = null;
    app.save();
    app.render();
  } } }));
  box.appendChild(card);
  if (shown !== n) {
    // a new choice is brought to the eye, below the sticky header (the page's scroll padding
    // keeps it clear of the header and the call bar)
    shown = n;
    card.scrollIntoView({ block: "start" });
  }
}
