// A table's phone page: who sits where, one game at a time, the opponents' confirmation.
// What is typed goes through the phone's outbox (table-queue.js: kept in the phone first, sent
// in order, exactly once); this module takes the server's answers and draws the page from the
// modules by concern: the game card (table-card.js, table-game.js), the conflict dialog
// (table-conflict.js), the sheet and the end of the round (table-sheet.js), what others
// changed in words (table-words.js), the status line and the call (table-calls.js). Scoring,
// dealers and points come from the server (the engine), never from here.
import { Outbox } from "./table-queue.js";
import { bindCall, renderCall, showStatus } from "./table-calls.js";
import { renderCard, scheduleCheck } from "./table-card.js";
import { renderConflict } from "./table-conflict.js";
import { currentGame } from "./table-game.js";
import { renderFinish, renderSeats, renderSheet } from "./table-sheet.js";
import { noticeChanges, renderNotices } from "./table-words.js";

const root = document.getElementById("table-app");
if (root) start(root);

// What the page scrolls into view (the conflict card, the card of a game tapped in the sheet, a
// field that gets the focus) stays clear of the sticky header and the call bar at the bottom:
// the scroll padding is their height, whatever their words wrap to.
function clearOfBars() {
  const style = document.documentElement.style;
  const header = document.querySelector("header.bar");
  const callbar = document.querySelector(".callbar");
  if (header) style.scrollPaddingTop = header.offsetHeight + 8 + "px";
  if (callbar) style.scrollPaddingBottom = callbar.offsetHeight + 8 + "px";
}

function start(root) {
  const app = {
    T: JSON.parse(document.getElementById("table-strings").textContent),
    server: JSON.parse(document.getElementById("table-state").textContent),
    checked: {},  // game number -> the server's check of the card's values
    stale: 0,  // refresh answers not taken (for a look from outside)
    taken: 0,  // requests sent when the page took a step's answer: refreshes among them may be older
  };
  const outbox = new Outbox(root.dataset.store, root.dataset.base, {
    render: function () { render(); },
    status: function () { showStatus(app); },
    stampOf: function (n) { return app.server.games[n - 1].stamp; },
    accepted: accepted,
    refused: refused,
    state: function (state, seq) { accept(state, 0, seq); }
  });
  app.outbox = outbox;
  app.local = outbox.local;
  app.save = function () { outbox.save(); };
  app.render = render;
  app.queue = function (step) { outbox.queue(step); };
  app.refresh = function () { outbox.refresh(app.server && app.server.stamp); };
  app.gameShown = function (n) {  // game n: waiting in the phone, or as the server keeps it
    const pending = outbox.pendingGame(n);
    if (pending) return pending.remove ? null : pending.game;
    return app.server.games[n - 1].entered ? app.server.games[n - 1].values : null;
  };
  app.nextGame = function () {
    for (let n = 1; n <= app.server.games.length; n++) {
      if (!app.gameShown(n)) return n;
    }
    return null;
  };
  const POLL_MS = Number(root.dataset.poll || 8000);

  // --- the server's state of the sheet -----------------------------------------------------------
  function accept(state, own, seq) {
    // replies can overtake each other: never let an older state of the sheet replace a newer
    if (!state || (app.server && state.version < app.server.version)) return;
    // The same version of the sheet can still differ in the call, the seat check or the
    // confirmation. A step's own answer (no seq) was read after the step was kept: it is
    // taken. A refresh sent before that answer came may have been read before the step (read
    // just before the call was stored, answered after the call's own answer): not taken, and
    // a refresh now brings whatever it would have told.
    if (app.server && state.version === app.server.version && seq !== undefined && seq <= app.taken) {
      app.stale += 1;
      app.refresh();
      return;
    }
    app.server = state;
    if (seq === undefined) app.taken = outbox.sent;
    noticeChanges(app, own || 0);
  }

  // --- what an answer means for the page -----------------------------------------------------------
  function accepted(step, answer) {
    let own = 0;
    if (step.type === "game") {
      own = step.number;
      delete app.local.refused[step.number];
    }
    if (step.type === "seats") app.local.seatProblems = null;
    accept(answer.state, own);
  }
  function refused(step, answer) {
    const local = app.local;
    if (step.type === "game" && answer.conflict) {
      const mine = outbox.dropFollowers(step);
      local.conflicts[step.number] = { message: answer.message, by: answer.conflict.by,
        stamp: answer.conflict.stamp, theirs: answer.conflict.theirs,
        mine: mine.remove ? null : mine.game };
      delete local.drafts[step.number];
      local.current = step.number;
      app.refresh();
    } else if (step.type === "game") {
      const latest = outbox.dropFollowers(step);
      local.refused[step.number] = { message: answer.message, messages: answer.messages || {} };
      if (!latest.remove) local.drafts[step.number] = latest.game;
      local.bases[step.number] = step.base !== undefined && step.base !== null ? step.base : app.server.games[step.number - 1].stamp;
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

  function render() {
    clearOfBars();  // before anything is scrolled into view (the call's words may have wrapped)
    showStatus(app);
    renderNotices(app);
    renderSeats(app);
    renderConflict(app);
    renderCard(app);
    renderSheet(app);
    renderFinish(app);
    renderCall(app);
  }

  // --- start --------------------------------------------------------------------------------------
  if ("serviceWorker" in navigator && window.isSecureContext && root.dataset.sw) {
    // where browsers allow it (https, localhost): the page opens again without a connection
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/tisch/" }).then(function () {
      const own = [window.location.href.split("#")[0]];
      document.querySelectorAll("link[rel=stylesheet], link[rel=modulepreload], script[src]").forEach(function (node) {
        own.push(node.href || node.src);
      });
      return caches.open("binokel-table-v1").then(function (cache) { return cache.addAll(own); });
    }).catch(function () { /* without it the phone still keeps every game */ });
  }
  window.addEventListener("resize", clearOfBars);
  bindCall(app);
  noticeChanges(app, 0);
  render();
  outbox.flush();
  if (currentGame(app)) scheduleCheck(app, currentGame(app));
  // what the desk or the other phone changed shows within seconds (a short "unchanged" answer
  // while nothing changed)
  window.setInterval(function () { if (outbox.idle()) app.refresh(); }, POLL_MS);
  root.dataset.ready = "1";
  window.binokelTable = function () {  // for a look from outside (tests, support)
    return { version: app.server.version, entered: app.server.entered, outbox: app.local.outbox.length,
      current: currentGame(app), connection: outbox.connection, sending: outbox.sending,
      conflicts: Object.keys(app.local.conflicts).length, notices: app.local.notices.length,
      stale: app.stale };
  };
}
