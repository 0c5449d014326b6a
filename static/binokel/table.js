// A table's phone page: who sits where, one game at a time, the opponents' confirmation.
// What is typed goes through the phone's outbox (table-queue.js: kept in the phone first, sent
// in order, exactly once); this module shows the table and what the answers mean. Scoring,
// dealers and points come from the server (the engine), never from here.
import { Outbox } from "./table-queue.js";

const app = document.getElementById("table-app");
if (app) start(app);

function start(app) {
  var T = JSON.parse(document.getElementById("table-strings").textContent);
  var server = JSON.parse(document.getElementById("table-state").textContent);
  var outbox = new Outbox(app.dataset.store, app.dataset.base, {
    render: function () { render(); },
    status: function () { showStatus(); },
    stampOf: function (n) { return server.games[n - 1].stamp; },
    accepted: accepted,
    refused: refused,
    state: function (state, seq) { accept(state, 0, seq); }
  });
  var local = outbox.local;
  var checkSeq = 0;
  var checkTimer = null;
  var checked = {};       // game number -> the server's answer for the card's values
  var POLL_MS = Number(app.dataset.poll || 8000);

  function save() { outbox.save(); }
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_m, name) { return String(values[name]); });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (name === "text") node.textContent = value;
      else if (name === "on") Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); });
      else if (value === true) node.setAttribute(name, "");
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function points(value) {
    if (value === null || value === undefined) return "";
    var text = Math.abs(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
    return value < 0 ? "−" + text : text;
  }

  // --- the server's state of the sheet ---------------------------------------------------------------
  var stale = 0;  // refresh answers not taken (for a look from outside)
  var taken = 0;  // requests sent when the page took a step's answer: refreshes among them may be older
  function accept(state, own, seq) {
    // replies can overtake each other: never let an older state of the sheet replace a newer
    if (!state || (server && state.version < server.version)) return;
    // The same version of the sheet can still differ in the call, the seat check or the
    // confirmation. A step's own answer (no seq) was read after the step was kept: it is
    // taken. A refresh sent before that answer came may have been read before the step (read
    // just before the call was stored, answered after the call's own answer): not taken, and
    // a refresh now brings whatever it would have told.
    if (server && state.version === server.version && seq !== undefined && seq <= taken) {
      stale += 1;
      refresh();
      return;
    }
    server = state;
    if (seq === undefined) taken = outbox.sent;
    noticeChanges(own || 0);
  }
  // --- what others changed (the desk, the table's other phone), said in words ------------------
  function noticeChanges(own) {
    var first = !local.known;
    local.known = local.known || {};
    server.games.forEach(function (game) {
      var n = game.number;
      var before = local.known[n] || { stamp: "", values: null };
      if (game.stamp === before.stamp) return;
      // a step of this phone for the game is on its way: its answer tells (it may be ours)
      if (n !== own && local.outbox.some(function (s) { return s.type === "game" && s.number === n; })) return;
      var values = game.stamp ? game.values : null;
      if (!first && n !== own) {
        var text = describeChange(n, game.by, before.values, values);
        if (text) local.notices.push({ game: n, text: text });
      }
      local.known[n] = { stamp: game.stamp, values: values };
    });
    save();
  }
  function who(by) { return by === "desk" ? "desk" : "phone"; }
  function describeChange(n, by, before, after) {
    if (!before && !after) return "";
    if (!after) return fmt(T["removed_" + who(by)], { n: n });
    if (!before) return fmt(T["added_" + who(by)], { n: n });
    var parts = differences(before, after);
    return fmt(T["changed_" + who(by)], { n: n, what: parts.join("; ") || "–" });
  }
  function shown(value) { return value === null || value === undefined || value === "" ? "–" : String(value); }
  function columnName(c) { var col = server.columns[c - 1]; return col ? col.name : String(c); }
  function describeValue(field, value) {
    if (field === "kind") return kindOf(value).label;
    if (field === "declarer") return value ? columnName(Number(value)) : "–";
    if (typeof value === "boolean") return value ? T.yes : T.no;
    return shown(value);
  }
  function differences(before, after) {
    var parts = [];
    [["kind", T.kind], ["declarer", T.declarer], ["bid", T.bid], ["dealer", T.dealer], ["notrick", T.notrick]].forEach(function (f) {
      if (shown(before[f[0]]) !== shown(after[f[0]])) {
        parts.push(f[1] + " " + describeValue(f[0], before[f[0]]) + " → " + describeValue(f[0], after[f[0]]));
      }
    });
    (after.columns || []).forEach(function (column, i) {
      var old = (before.columns || [])[i] || {};
      [["meld", T.meld], ["tricks", T.tricks], ["penalty", T.penalty], ["revoked", T.revoked]].forEach(function (f) {
        if (shown(old[f[0]]) !== shown(column[f[0]])) {
          parts.push(f[1] + " " + columnName(i + 1) + " " + describeValue(f[0], old[f[0]]) + " → " + describeValue(f[0], column[f[0]]));
        }
      });
    });
    return parts;
  }
  // --- what an answer means for the page -----------------------------------------------------------
  function accepted(step, answer) {
    var own = 0;
    if (step.type === "game") {
      own = step.number;
      delete local.refused[step.number];
    }
    if (step.type === "seats") local.seatProblems = null;
    accept(answer.state, own);
  }
  function refused(step, answer) {
    if (step.type === "game" && answer.conflict) {
      var mine = outbox.dropFollowers(step);
      local.conflicts[step.number] = { message: answer.message, by: answer.conflict.by,
        stamp: answer.conflict.stamp, theirs: answer.conflict.theirs,
        mine: mine.remove ? null : mine.game };
      delete local.drafts[step.number];
      local.current = step.number;
      refresh();
    } else if (step.type === "game") {
      var latest = outbox.dropFollowers(step);
      local.refused[step.number] = { message: answer.message, messages: answer.messages || {} };
      if (!latest.remove) local.drafts[step.number] = latest.game;
      local.bases[step.number] = step.base !== undefined && step.base !== null ? step.base : server.games[step.number - 1].stamp;
      local.current = step.number;
    } else if (step.type === "confirm" && answer.stale) {
      local.confirmProblem = answer.message;
      accept(answer.state);
    } else if (step.type === "seats") {
      local.seatProblems = answer.problems || [answer.message];
    } else if (step.type === "confirm") {
      local.confirmProblem = answer.message;
    }
  }
  function queue(step) { outbox.queue(step); }
  function queueGame(n, game, remove) { outbox.queueGame(n, game, remove); }
  function refresh() { outbox.refresh(server && server.stamp); }

  // --- what the page shows ------------------------------------------------------------------------
  function pendingGame(n) { return outbox.pendingGame(n); }
  function gameShown(n) {  // the values of game n: waiting in the phone, or as the server keeps them
    var pending = pendingGame(n);
    if (pending) return pending.remove ? null : pending.game;
    return server.games[n - 1].entered ? server.games[n - 1].values : null;
  }
  function pendingCount() {
    return local.outbox.filter(function (s) { return s.type === "game"; }).length;
  }
  function nextGame() {
    for (var n = 1; n <= server.games.length; n++) {
      if (!gameShown(n)) return n;
    }
    return null;
  }
  function locked() { return server.locked; }

  function showStatus() {
    var box = document.getElementById("status");
    var waiting = local.outbox.filter(function (s) { return s.type !== "call"; }).length;
    var state = outbox.connection === "dead" ? "dead" : outbox.connection === "offline" && waiting ? "offline"
      : outbox.sending ? "sending" : waiting ? "pending" : "ok";
    box.dataset.state = state;
    box.textContent = state === "dead" ? T.dead_link
      : state === "offline" ? T.offline + " " + fmt(T.pending, { n: waiting })
      : state === "sending" ? T.sending + " " + fmt(T.pending, { n: waiting })
      : state === "pending" ? fmt(T.pending, { n: waiting })
      : server.confirmed_at_desk ? T.confirmed_desk : T.all_sent;
  }

  function render() {
    showStatus();
    renderNotices();
    renderSeats();
    renderConflict();
    renderCard();
    renderSheet();
    renderFinish();
    renderCall();
  }
  function renderCall() {
    // "gerufen" only once the server has the call; until then it is on its way
    var call = document.getElementById("call");
    var waiting = local.outbox.some(function (s) { return s.type === "call"; });
    var state = server.help_coming ? "coming" : server.help ? "called" : waiting ? "sending" : "idle";
    call.dataset.called = state === "called" || state === "coming" ? "true" : "false";
    call.dataset.state = state;
    call.textContent = state === "coming" ? T.coming : state === "called" ? T.called
      : state === "sending" ? T.calling : T.call;
  }
  function renderNotices() {
    var box = document.getElementById("notices");
    box.textContent = "";
    box.hidden = !local.notices.length;
    if (!local.notices.length) return;
    local.notices.forEach(function (notice) {
      box.appendChild(el("p", { "class": "notice", "data-game": notice.game, text: notice.text }));
    });
    box.appendChild(el("button", { type: "button", id: "notices-seen", text: T.seen, on: { click: function () {
      local.notices = []; save(); render();
    } } }));
  }
  function describeGame(values) {  // one version of a game in a few words, for the choice
    if (!values) return [T.deleted];
    var lines = [describeValue("kind", values.kind) + " · " + T.declarer + " " + describeValue("declarer", values.declarer) +
      " · " + T.bid + " " + shown(values.bid)];
    var kind = kindOf(values.kind);
    (values.columns || []).forEach(function (column, i) {
      var bits = [];
      if (kind.melds) bits.push(T.meld + " " + shown(column.meld));
      if (kind.tricks) bits.push(T.tricks + " " + shown(column.tricks));
      if (column.revoked) bits.push(T.revoked);
      if (bits.length) lines.push(columnName(i + 1) + ": " + bits.join(", "));
    });
    return lines;
  }
  function renderConflict() {
    var box = document.getElementById("conflict");
    box.textContent = "";
    var numbers = Object.keys(local.conflicts);
    box.hidden = !numbers.length;
    if (!numbers.length) return;
    var n = Number(numbers[0]);
    var conflict = local.conflicts[n];
    var card = el("div", { "class": "card conflict", id: "conflict-card", "data-game": n },
      [el("h2", { text: fmt(T.conflict_title, { n: n }) }), el("p", { "class": "problem", text: conflict.message })]);
    var theirs = el("div", { "class": "version theirs" }, [el("h3", { text: conflict.by === "desk" ? T.theirs_desk : T.theirs_phone })]
      .concat(describeGame(conflict.theirs).map(function (line) { return el("p", { text: line }); })));
    var mine = el("div", { "class": "version mine" }, [el("h3", { text: T.mine })]
      .concat(describeGame(conflict.mine).map(function (line) { return el("p", { text: line }); })));
    card.appendChild(theirs);
    card.appendChild(mine);
    card.appendChild(el("button", { type: "button", "class": "primary", id: "keep-mine", text: T.keep_mine, on: { click: function () {
      delete local.conflicts[n];
      var step = { type: "game", number: n, game: conflict.mine, remove: !conflict.mine, base: conflict.stamp };
      queue(step);
    } } }));
    card.appendChild(el("button", { type: "button", id: "keep-theirs", text: T.keep_theirs, on: { click: function () {
      delete local.conflicts[n];
      local.current = null;
      save();
      render();
    } } }));
    box.appendChild(card);
  }

  // --- who sits where -----------------------------------------------------------------------------
  function renderSeats() {
    var box = document.getElementById("seats");
    var waiting = local.outbox.some(function (s) { return s.type === "seats"; });
    var show = !server.seats_checked && !locked() && (!local.seatsLater || local.seatProblems);
    box.hidden = !show;
    if (!show) return;
    box.textContent = "";
    var inputs = [];
    var card = el("div", { "class": "card" }, [el("h2", { text: T.seats_title }),
      el("p", { "class": "muted", text: T.seats_help })]);
    server.chairs.forEach(function (chair, i) {
      var role = chair.deals_first ? " – " + T.deals_first : chair.keeps_score ? " – " + T.keeps_score : "";
      var input = el("input", { inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off",
        "aria-label": fmt(T.seat, { n: chair.seat }), "data-seat": chair.seat,
        value: (local.seatNumbers || [])[i] || "" });
      input.addEventListener("input", function () {  // kept through a redraw while typing
        local.seatNumbers = local.seatNumbers || [];
        local.seatNumbers[i] = input.value.trim();
        save();
      });
      inputs.push(input);
      card.appendChild(el("label", { "class": "field" }, [fmt(T.seat, { n: chair.seat }) + role, input]));
    });
    if (local.seatProblems) {
      card.appendChild(el("ul", { "class": "messages" }, local.seatProblems.map(function (p) {
        return el("li", { text: p });
      })));
    }
    var check = el("button", { type: "button", "class": "primary", id: "seats-check", text: T.seats_ok,
      disabled: waiting, on: { click: function () {
        local.seatNumbers = inputs.map(function (i) { return i.value.trim(); });
        local.seatProblems = null;
        local.seatsLater = true;
        queue({ type: "seats", numbers: local.seatNumbers.map(function (v) { return v === "" ? null : v; }) });
      } } });
    var later = el("button", { type: "button", text: T.seats_later, on: { click: function () {
      local.seatsLater = true; local.seatProblems = null; save(); render();
    } } });
    card.appendChild(check);
    card.appendChild(later);
    box.appendChild(card);
  }

  // --- the game being typed ---------------------------------------------------------------------
  function currentGame() {
    if (locked() || Object.keys(local.conflicts).length) return null;
    if (local.current && local.current <= server.games.length) return local.current;
    return nextGame();
  }
  function emptyGame() {
    return { kind: server.kinds[0].value, declarer: "", bid: "", dealer: "", notrick: false,
      columns: server.columns.map(function () {
        return { meld: "", tricks: "", revoked: false, penalty: "" };
      }) };
  }
  function draftOf(n) {
    if (!local.drafts[n]) {
      local.drafts[n] = editable(gameShown(n) || emptyGame());
      // the state this card is typed on: what the server had when it was opened
      if (!pendingGame(n)) local.bases[n] = server.games[n - 1].stamp;
    }
    return local.drafts[n];
  }
  function editable(values) {  // the card's inputs hold text; the server sends numbers
    var copy = JSON.parse(JSON.stringify(values));
    ["declarer", "bid", "dealer"].forEach(function (f) { copy[f] = copy[f] === null || copy[f] === undefined ? "" : String(copy[f]); });
    copy.columns.forEach(function (c) {
      ["meld", "tricks", "penalty"].forEach(function (f) { c[f] = c[f] === null || c[f] === undefined ? "" : String(c[f]); });
    });
    return copy;
  }
  function kindOf(value) {
    return server.kinds.filter(function (k) { return k.value === value; })[0] || server.kinds[0];
  }
  function playing(n) {
    var out = server.games[n - 1].sits_out;
    return server.columns.filter(function (c) { return c.number !== out; });
  }
  function dealerNeeded(n) {  // a pair table after a Durch: who of the pair played it deals
    var notes = server.games[n - 1].notes || [];
    return server.kind === "pairs" && notes.length > 0;
  }

  function cardShape(n) {
    return JSON.stringify([n, draftOf(n).kind, dealerNeeded(n), server.games[n - 1].sits_out,
      local.refused[n] || null]);
  }
  function renderCard(force) {
    var box = document.getElementById("card");
    var n = currentGame();
    box.hidden = !n;
    if (!n) { box.textContent = ""; return; }
    var draft = draftOf(n);
    var kind = kindOf(draft.kind);
    var game = server.games[n - 1];
    var refused = local.refused[n];
    var answer = checked[n];
    var messages = (refused && refused.messages) || (answer && answer.messages) || {};
    var pendingBefore = local.outbox.some(function (s) { return s.type === "game" && s.number < n; });
    var dealerText = pendingBefore ? T.dealer_later : T.dealer + ": " + game.dealer_name;
    // A reply or a refresh while somebody types must not rebuild the card under their fingers
    // (the phone's keyboard would close): rebuild only when what the card asks has changed.
    var shape = cardShape(n);
    var shown = document.getElementById("game-card");
    if (!force && shown && shown.dataset.shape === shape) {
      shown.querySelector("#dealer").textContent = dealerText;
      var checking = shown.querySelector("#check-state");
      if (outbox.connection !== "ok") checking.textContent = T.check_later;
      else if (checking.textContent === T.check_later) checking.textContent = answer ? "" : T.checking;
      return;
    }
    box.textContent = "";
    var card = el("div", { "class": "card", id: "game-card", "data-game": n, "data-shape": shape });
    card.appendChild(el("h2", { text: T.game + " " + n }));
    card.appendChild(el("p", { "class": "muted", id: "dealer", text: dealerText }));
    if (dealerNeeded(n)) {
      var select = el("select", { "data-field": "dealer", "aria-label": T.dealer_choose }, [el("option", { value: "", text: "–" })]
        .concat(server.chairs.map(function (chair) {
          return el("option", { value: String(chair.seat), selected: String(draft.dealer) === String(chair.seat),
            text: chair.name + " (" + chair.start_number + ")" });
        })));
      select.addEventListener("change", function () { draft.dealer = select.value; typed(n); });
      card.appendChild(el("label", { "class": "field" }, [T.dealer_choose, select]));
    }
    // declarer: one button per playing party
    card.appendChild(el("div", { "class": "field muted", text: T.declarer }));
    var who = el("div", { "class": "choices", role: "group", "aria-label": T.declarer });
    playing(n).forEach(function (column) {
      who.appendChild(el("button", { type: "button", "data-declarer": column.number,
        "aria-pressed": String(draft.declarer) === String(column.number) ? "true" : "false",
        text: column.name, on: { click: function () { draft.declarer = String(column.number); typed(n, true); } } }));
    });
    card.appendChild(who);
    addMessages(card, messages, ["declarer"]);
    // kind: one button per kind the rule set plays
    var kinds = el("div", { "class": "choices kinds", role: "group", "aria-label": T.kind });
    server.kinds.forEach(function (k) {
      kinds.appendChild(el("button", { type: "button", "data-kind": k.value,
        "aria-pressed": draft.kind === k.value ? "true" : "false", text: k.label,
        on: { click: function () { draft.kind = k.value; typed(n, true); } } }));
    });
    card.appendChild(kinds);
    addMessages(card, messages, ["kind"]);
    card.appendChild(numberField(n, T.bid, draft, "bid", null, messages["bid"]));
    addMessages(card, messages, ["bid"]);
    playing(n).forEach(function (column, index, all) {
      var values = draft.columns[column.number - 1];
      var party = el("div", { "class": "party", "data-column": column.number });
      var preview = answer && answer.points ? points(answer.points[column.number - 1]) : "";
      party.appendChild(el("h3", {}, [el("span", { text: column.name }), el("span", { "class": "preview", "data-preview": column.number, text: preview })]));
      var grid = el("div", { "class": "pair" + (server.penalties ? " three" : "") });
      var prefix = "columns." + column.number + ".";
      if (kind.melds) grid.appendChild(numberField(n, T.meld, values, "meld", column.number, messages[prefix + "meld"]));
      if (kind.tricks) {
        var tricks = numberField(n, T.tricks, values, "tricks", column.number, messages[prefix + "tricks"]);
        if (index === all.length - 1) tricks.querySelector("input").dataset.last = "1";
        grid.appendChild(tricks);
      }
      if (server.penalties) grid.appendChild(numberField(n, T.penalty, values, "penalty", column.number, messages[prefix + "penalty"]));
      party.appendChild(grid);
      if (kind.tricks) {
        var revoked = el("input", { type: "checkbox", checked: !!values.revoked, "data-field": "revoked", "data-column": column.number });
        revoked.addEventListener("change", function () { values.revoked = revoked.checked; typed(n); });
        party.appendChild(el("label", { "class": "toggle" }, [revoked, T.revoked]));
      }
      addMessages(party, messages, [prefix + "meld", prefix + "tricks", prefix + "penalty", prefix + "took_trick"]);
      card.appendChild(party);
    });
    if (kind.tricks) {
      var notrick = el("input", { type: "checkbox", checked: !!draft.notrick, "data-field": "notrick" });
      notrick.addEventListener("change", function () { draft.notrick = notrick.checked; typed(n); });
      card.appendChild(el("label", { "class": "toggle" }, [notrick, T.notrick]));
    }
    addMessages(card, messages, ["columns", "revoked", "dealer", ""]);
    if (refused && refused.message && !Object.keys(refused.messages || {}).length) {
      card.appendChild(el("p", { "class": "problem", text: T.refused + " " + refused.message }));
    }
    var notes = el("div", { id: "notes" });
    (answer && answer.notes || []).forEach(function (note) { notes.appendChild(el("p", { "class": "note", text: note })); });
    card.appendChild(notes);
    card.appendChild(el("p", { "class": "muted", id: "check-state",
      text: outbox.connection === "ok" ? (answer ? "" : T.checking) : T.check_later }));
    card.appendChild(el("button", { type: "button", "class": "primary", id: "save-game",
      text: fmt(T.save_game, { n: n }), on: { click: function () { saveGame(n); } } }));
    if (gameShown(n)) {
      var remove = el("button", { type: "button", id: "delete-game", "class": "danger", text: fmt(T.delete_game, { n: n }) });
      remove.addEventListener("click", function () {
        if (remove.dataset.sure === "1") { deleteGame(n); return; }
        remove.dataset.sure = "1";
        remove.textContent = fmt(T.delete_sure, { n: n });
      });
      card.appendChild(remove);
    }
    box.appendChild(card);
  }
  function numberField(n, label, values, name, column, problems) {
    var input = el("input", { inputmode: "numeric", pattern: "-?[0-9]*", autocomplete: "off",
      "data-field": name, "data-column": column || null, value: shownInput(values[name]),
      "class": problems && problems.length ? "bad" : null,
      "aria-label": label + (column ? " " + server.columns[column - 1].name : "") });
    input.addEventListener("input", function () {
      values[name] = input.value.trim();
      if (name === "tricks") autofill(n, input);
      typed(n);
    });
    return el("label", { "class": "field" }, [label, input]);
  }
  function addMessages(node, messages, fields) {
    var list = el("ul", { "class": "messages", "data-for": fields.join(" ") });
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
  function applyAnswer(n) {  // the server's check of the card, shown without redrawing inputs
    var card = document.getElementById("game-card");
    if (!card || Number(card.dataset.game) !== n) return;
    var answer = checked[n] || {};
    var messages = answer.messages || {};
    card.querySelectorAll("ul.messages").forEach(function (list) { fillMessages(list, messages); });
    card.querySelectorAll("input[data-field]").forEach(function (input) {
      var name = input.dataset.column ? "columns." + input.dataset.column + "." + input.dataset.field
        : input.dataset.field;
      input.classList.toggle("bad", !!(messages[name] && messages[name].length));
    });
    card.querySelectorAll("[data-preview]").forEach(function (span) {
      var column = Number(span.dataset.preview);
      span.textContent = answer.points ? points(answer.points[column - 1]) : "";
    });
    var notes = card.querySelector("#notes");
    notes.textContent = "";
    (answer.notes || []).forEach(function (note) { notes.appendChild(el("p", { "class": "note", text: note })); });
    var state = card.querySelector("#check-state");
    if (state) state.textContent = "";
  }
  function autofill(n, changed) {  // the last party's Stiche: all eyes minus the others'
    var draft = draftOf(n);
    var columns = playing(n);
    var last = draft.columns[columns[columns.length - 1].number - 1];
    if (changed.dataset.last === "1") { last.auto = false; return; }
    if (last.tricks !== "" && !last.auto) return;
    var sum = 0;
    for (var i = 0; i < columns.length - 1; i++) {
      var v = parseInt(draft.columns[columns[i].number - 1].tricks, 10);
      if (isNaN(v)) return;
      sum += v;
    }
    last.tricks = String(server.total_eyes - sum);
    last.auto = true;
    var input = document.querySelector('#game-card input[data-field="tricks"][data-last="1"]');
    if (input) input.value = last.tricks;
  }
  function typed(n, redraw) {
    delete local.refused[n];
    local.current = n;  // whoever types a game stays on it, whatever arrives meanwhile
    save();
    var shown = document.getElementById("game-card");
    if (shown && !redraw) shown.dataset.shape = cardShape(n);  // the check's answer replaces the reasons
    if (redraw) {
      var focus = document.activeElement && document.activeElement.dataset;
      renderCard(true);
      if (focus && focus.field) {
        var again = document.querySelector('#game-card [data-field="' + focus.field + '"]' +
          (focus.column ? '[data-column="' + focus.column + '"]' : ""));
        if (again) again.focus();
      }
    }
    scheduleCheck(n);
  }
  function scheduleCheck(n) {
    if (checkTimer) window.clearTimeout(checkTimer);
    checkTimer = window.setTimeout(function () { runCheck(n); }, 400);
  }
  function runCheck(n) {
    var seq = ++checkSeq;
    var draft = draftOf(n);
    outbox.request("pruefen/", { number: n, game: stripped(draft), seq: seq }).then(function (response) {
      return response.json();
    }).then(function (answer) {
      if (!answer || !answer.ok || seq !== checkSeq) return;  // an older answer: ignore
      checked[n] = answer.game;
      if (currentGame() === n) applyAnswer(n);
    }).catch(function () {
      var state = document.getElementById("check-state");
      if (state) state.textContent = T.check_later;
    });
  }
  function shownInput(value) { return value === null || value === undefined ? "" : String(value); }
  function typedNumber(value) {  // what the server takes: a whole number, or nothing
    var text = shownInput(value).trim();
    if (text === "") return null;
    return /^-?[0-9]{1,9}$/.test(text) ? parseInt(text, 10) : text;
  }
  function stripped(game) {
    var copy = JSON.parse(JSON.stringify(game));
    copy.columns.forEach(function (c) { delete c.auto; });
    var kind = kindOf(copy.kind);
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
  function saveGame(n) {
    var game = stripped(draftOf(n));
    var sitsOut = server.games[n - 1].sits_out;
    if (sitsOut) { game.columns[sitsOut - 1] = { meld: null, tricks: null, revoked: false, penalty: null }; }
    delete local.drafts[n];
    delete checked[n];
    local.current = null;
    queueGame(n, game, false);
    window.scrollTo(0, 0);
  }
  function deleteGame(n) {  // explicit and confirmed: the second tap deletes
    delete local.drafts[n];
    delete checked[n];
    local.current = null;
    queueGame(n, null, true);
    window.scrollTo(0, 0);
  }

  // --- the sheet so far -------------------------------------------------------------------------
  function renderSheet() {
    var box = document.getElementById("sheet");
    box.textContent = "";
    var head = [el("th", { text: "#" })].concat(server.columns.map(function (c) {
      return el("th", { title: c.name }, [el("span", { "class": "name", text: c.name }), el("small", { text: String(c.start_number) })]);
    }));
    var rows = [];
    var current = currentGame();
    server.games.forEach(function (game) {
      var n = game.number;
      var pending = pendingGame(n);
      var values = gameShown(n);
      if (!values && n !== current) return;
      var cells = [el("td", { text: String(n) })];
      server.columns.forEach(function (c, i) {
        var text = "";
        var sub = "";
        if (pending) { text = "…"; sub = T.not_sent; }
        else if (game.points) { text = points(game.points[i]); sub = "Σ " + points(game.running[i]); }
        if (game.sits_out === c.number) { text = "–"; sub = T.sits_out; }
        cells.push(el("td", {}, [text, sub ? el("small", { text: sub }) : null]));
      });
      var cls = (pending ? "pending " : "") + (local.refused[n] ? "refused " : "") + (n === current ? "current" : "");
      var row = el("tr", { "data-game": n, "class": cls.trim() || null }, cells);
      if (!locked()) row.addEventListener("click", function () { local.current = n; save(); render(); document.getElementById("card").scrollIntoView(); });
      rows.push(row);
    });
    var totals = [el("td", { text: "Σ", title: T.total, "aria-label": T.total })].concat(server.totals.map(function (t) {
      return el("td", { text: points(t) });
    }));
    box.appendChild(el("table", { "class": "games", id: "games" }, [el("thead", {}, [el("tr", {}, head)]),
      el("tbody", {}, rows), el("tfoot", {}, [el("tr", {}, totals)])]));
  }

  // --- the end of the round ----------------------------------------------------------------------
  function renderFinish() {
    var box = document.getElementById("finish");
    box.textContent = "";
    if (locked()) {
      box.hidden = false;
      box.appendChild(el("p", { "class": "card", id: "locked", text: server.confirmed_at_desk ? T.confirmed_desk : T.locked }));
      return;
    }
    var ready = server.complete && !local.outbox.some(function (s) { return s.type === "game"; }) && !currentGame() &&
      !Object.keys(local.conflicts).length;
    box.hidden = !ready;
    if (!ready) return;
    var card = el("div", { "class": "card" }, [el("h2", { text: T.finish_title }), el("p", { "class": "muted", text: T.finish_help })]);
    local.confirmTyped = local.confirmTyped || {};
    var inputs = server.opponents.map(function (chair) {
      // what was typed survives a redraw (a reply or a refresh while the opponents type)
      var input = el("input", { inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", "data-confirm": chair.column,
        value: local.confirmTyped[chair.column] || "" });
      input.addEventListener("input", function () { local.confirmTyped[chair.column] = input.value; save(); });
      card.appendChild(el("label", { "class": "field" }, [fmt(T.start_number_of, { name: chair.name }), input]));
      return input;
    });
    if (local.confirmProblem) card.appendChild(el("p", { "class": "problem", text: local.confirmProblem }));
    var waiting = local.outbox.some(function (s) { return s.type === "confirm"; });
    card.appendChild(el("button", { type: "button", "class": "primary", id: "confirm", text: T.confirm, disabled: waiting,
      on: { click: function () {
        local.confirmProblem = null;
        queue({ type: "confirm", version: server.version, numbers: inputs.map(function (i) { return i.value.trim() || null; }) });
      } } }));
    box.appendChild(card);
  }

  document.getElementById("call").addEventListener("click", function () {
    if (server.help || local.outbox.some(function (s) { return s.type === "call"; })) return;
    queue({ type: "call" });
  });

  // --- start --------------------------------------------------------------------------------------
  if ("serviceWorker" in navigator && window.isSecureContext && app.dataset.sw) {
    // where browsers allow it (https, localhost): the page opens again without a connection
    navigator.serviceWorker.register(app.dataset.sw, { scope: "/tisch/" }).then(function () {
      var own = [window.location.href.split("#")[0]];
      document.querySelectorAll('link[rel=stylesheet], link[rel=modulepreload], script[src]').forEach(function (node) {
        own.push(node.href || node.src);
      });
      return caches.open("binokel-table-v1").then(function (cache) { return cache.addAll(own); });
    }).catch(function () { /* without it the phone still keeps every game */ });
  }
  noticeChanges(0);
  render();
  outbox.flush();
  if (currentGame()) scheduleCheck(currentGame());
  // what the desk or the other phone changed shows within seconds (a short "unchanged" answer
  // while nothing changed)
  window.setInterval(function () { if (outbox.idle()) refresh(); }, POLL_MS);
  app.dataset.ready = "1";
  window.binokelTable = function () {  // for a look from outside (tests, support)
    return { version: server.version, entered: server.entered, outbox: local.outbox.length,
      current: currentGame(), connection: outbox.connection, sending: outbox.sending,
      conflicts: Object.keys(local.conflicts).length, notices: local.notices.length,
      stale: stale };
  };
}
