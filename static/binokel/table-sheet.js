// The table's sheet as the phone shows it: who sits where (checked at the start), the games so
// far with points and running totals, and the end of the round (the opponents confirm).
import { el, fmt, points } from "./table-util.js";
import { currentGame } from "./table-game.js";

export function renderSeats(app) {
  const T = app.T;
  const local = app.local;
  const box = document.getElementById("seats");
  const waiting = local.outbox.some(function (s) { return s.type === "seats"; });
  const show = !app.server.seats_checked && !app.server.locked && (!local.seatsLater || local.seatProblems);
  box.hidden = !show;
  if (!show) return;
  box.textContent = "";
  const inputs = [];
  const card = el("div", { "class": "card" }, [el("h2", { text: T.seats_title }),
    el("p", { "class": "muted", text: T.seats_help })]);
  app.server.chairs.forEach(function (chair, i) {
    const role = chair.deals_first ? " – " + T.deals_first : chair.keeps_score ? " – " + T.keeps_score : "";
    const input = el("input", { inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off",
      "aria-label": fmt(T.seat, { n: chair.seat }), "data-seat": chair.seat,
      value: (local.seatNumbers || [])[i] || "" });
    input.addEventListener("input", function () {  // kept through a redraw while typing
      local.seatNumbers = local.seatNumbers || [];
      local.seatNumbers[i] = input.value.trim();
      app.save();
    });
    inputs.push(input);
    card.appendChild(el("label", { "class": "field" }, [fmt(T.seat, { n: chair.seat }) + role, input]));
  });
  if (local.seatProblems) {
    card.appendChild(el("ul", { "class": "messages" }, local.seatProblems.map(function (p) {
      return el("li", { text: p });
    })));
  }
  const check = el("button", { type: "button", "class": "primary", id: "seats-check", text: T.seats_ok,
    disabled: waiting, on: { click: function () {
      local.seatNumbers = inputs.map(function (i) { return i.value.trim(); });
      local.seatProblems = null;
      local.seatsLater = true;
      app.queue({ type: "seats", numbers: local.seatNumbers.map(function (v) { return v === "" ? null : v; }) });
    } } });
  const later = el("button", { type: "button", text: T.seats_later, on: { click: function () {
    local.seatsLater = true; local.seatProblems = null; app.save(); app.render();
  } } });
  card.appendChild(check);
  card.appendChild(later);
  box.appendChild(card);
}

export function renderSheet(app) {
  const T = app.T;
  const server = app.server;
  const box = document.getElementById("sheet");
  box.textContent = "";
  const head = [el("th", { text: "#" })].concat(server.columns.map(function (c) {
    return el("th", { title: c.name }, [el("span", { "class": "name", text: c.name }), el("small", { text: String(c.start_number) })]);
  }));
  const rows = [];
  const current = currentGame(app);
  server.games.forEach(function (game) {
    const n = game.number;
    const pending = app.outbox.pendingGame(n);
    const values = app.gameShown(n);
    if (!values && n !== current) return;
    const cells = [el("td", { text: String(n) })];
    server.columns.forEach(function (c, i) {
      let text = "";
      let sub = "";
      if (pending) { text = "…"; sub = T.not_sent; }
      else if (game.points) { text = points(game.points[i]); sub = "Σ " + points(game.running[i]); }
      if (game.sits_out === c.number) { text = "–"; sub = T.sits_out; }
      cells.push(el("td", {}, [text, sub ? el("small", { text: sub }) : null]));
    });
    const cls = (pending ? "pending " : "") + (app.local.refused[n] ? "refused " : "") + (n === current ? "current" : "");
    const row = el("tr", { "data-game": n, "class": cls.trim() || null }, cells);
    if (!server.locked) {
      row.addEventListener("click", function () {
        app.local.current = n; app.save(); app.render(); document.getElementById("card").scrollIntoView();
      });
    }
    rows.push(row);
  });
  const totals = [el("td", { text: "Σ", title: T.total, "aria-label": T.total })].concat(server.totals.map(function (t) {
    return el("td", { text: points(t) });
  }));
  box.appendChild(el("table", { "class": "games", id: "games" }, [el("thead", {}, [el("tr", {}, head)]),
    el("tbody", {}, rows), el("tfoot", {}, [el("tr", {}, totals)])]));
}

export function renderFinish(app) {
  const T = app.T;
  const local = app.local;
  const server = app.server;
  const box = document.getElementById("finish");
  box.textContent = "";
  if (server.locked) {
    box.hidden = false;
    box.appendChild(el("p", { "class": "card", id: "locked", text: server.confirmed_at_desk ? T.confirmed_desk : T.locked }));
    return;
  }
  const ready = server.complete && !local.outbox.some(function (s) { return s.type === "game"; }) && !currentGame(app) &&
    !Object.keys(local.conflicts).length;
  box.hidden = !ready;
  if (!ready) return;
  const card = el("div", { "class": "card" }, [el("h2", { text: T.finish_title }), el("p", { "class": "muted", text: T.finish_help })]);
  local.confirmTyped = local.confirmTyped || {};
  const inputs = server.opponents.map(function (chair) {
    // what was typed survives a redraw (a reply or a refresh while the opponents type)
    const input = el("input", { inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", "data-confirm": chair.column,
      value: local.confirmTyped[chair.column] || "" });
    input.addEventListener("input", function () { local.confirmTyped[chair.column] = input.value; app.save(); });
    card.appendChild(el("label", { "class": "field" }, [fmt(T.start_number_of, { name: chair.name }), input]));
    return input;
  });
  if (local.confirmProblem) card.appendChild(el("p", { "class": "problem", text: local.confirmProblem }));
  const waiting = local.outbox.some(function (s) { return s.type === "confirm"; });
  card.appendChild(el("button", { type: "button", "class": "primary", id: "confirm", text: T.confirm, disabled: waiting,
    on: { click: function () {
      local.confirmProblem = null;
      app.queue({ type: "confirm", version: server.version, numbers: inputs.map(function (i) { return i.value.trim() || null; }) });
    } } }));
  box.appendChild(card);
}
