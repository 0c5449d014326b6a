// The phone's status line (what has reached the desk) and the call for the Turnierleitung:
// "gerufen" only once the server has the call; until then it is on its way.
import { fmt } from "./table-util.js";

export function showStatus(app) {
  const T = app.T;
  const outbox = app.outbox;
  const box = document.getElementById("status");
  const waiting = app.local.outbox.filter(function (s) { return s.type !== "call"; }).length;
  const state = outbox.connection === "dead" ? "dead" : outbox.connection === "offline" && waiting ? "offline"
    : outbox.sending ? "sending" : waiting ? "pending" : "ok";
  box.dataset.state = state;
  box.textContent = state === "dead" ? T.dead_link
    : state === "offline" ? T.offline + " " + fmt(T.pending, { n: waiting })
    : state === "sending" ? T.sending + " " + fmt(T.pending, { n: waiting })
    : state === "pending" ? fmt(T.pending, { n: waiting })
    : app.server.confirmed_at_desk ? T.confirmed_desk : T.all_sent;
}

export function renderCall(app) {
  const T = app.T;
  const call = document.getElementById("call");
  const waiting = app.local.outbox.some(function (s) { return s.type === "call"; });
  const state = app.server.help_coming ? "coming" : app.server.help ? "called" : waiting ? "sending" : "idle";
  call.dataset.called = state === "called" || state === "coming" ? "true" : "false";
  call.dataset.state = state;
  call.textContent = state === "coming" ? T.coming : state === "called" ? T.called
    : state === "sending" ? T.calling : T.call;
}

export function bindCall(app) {
  document.getElementById("call").addEventListener("click", function () {
    if (app.server.help || app.local.outbox.some(function (s) { return s.type === "call"; })) return;
    app.queue({ type: "call" });
  });
}
