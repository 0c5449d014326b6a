// The table phone's outbox: everything typed is kept in this phone first (localStorage) and
// sent to the server in order, one step at a time, each with a key of its own, so a step is
// kept exactly once however often it is sent; without a connection the steps wait and go when
// it is back (retrying less often, up to every 15 s). The page (table.js) says what an answer
// means for what it shows: the outbox only keeps, orders, sends and retries.

const PATHS = { game: "spiel/", seats: "plaetze/", confirm: "bestaetigen/", call: "rufen/" };
const FIRST_RETRY_MS = 2000;
const LAST_RETRY_MS = 15000;

function newKey() {
  return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
}

function csrf() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function load(storeKey) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch (e) { kept = null; }
  kept = kept || {};
  kept.outbox = kept.outbox || [];     // steps not yet acknowledged, in order
  kept.drafts = kept.drafts || {};     // game number -> values being typed
  kept.refused = kept.refused || {};   // game number -> the server's reasons
  kept.bases = kept.bases || {};       // game number -> stamp of the game its draft was typed on
  kept.conflicts = kept.conflicts || {};  // game number -> both versions, until one is chosen
  kept.notices = kept.notices || [];   // what others changed, in words, until "Gesehen"
  return kept;
}

function stepBody(step) {
  if (step.type === "game") {
    const body = { op: step.key, number: step.number, base: step.base === undefined ? null : step.base };
    if (step.remove) body["delete"] = true;
    else body.game = step.game;
    return body;
  }
  if (step.type === "confirm") return { numbers: step.numbers, version: step.version };
  if (step.type === "seats") return { numbers: step.numbers };
  return {};
}

// The page gives its hooks: render() after every change, status() when only the sending
// state changed; stampOf(n): the stamp of game n as
// the server has it; accepted(step, answer): a step was kept; refused(step, answer): a step was
// refused (400/409), the page shows why; state(state, seq): the server's state from a refresh,
// ``seq`` its request's number in the order sent (``sent`` counts every request): answers
// overtake each other, and the page weighs a refresh's state by it.
export class Outbox {
  constructor(storeKey, base, hooks) {
    this.storeKey = storeKey;
    this.base = base;
    this.hooks = hooks;
    this.local = load(storeKey);  // the phone's memory: the outbox and what the page keeps
    this.sending = false;
    this.sent = 0;  // requests sent so far (each answer's seq)
    this.connection = "ok";  // ok, offline, dead
    this.retryTimer = null;
    this.retryDelay = FIRST_RETRY_MS;
    window.addEventListener("online", () => { this.retryDelay = FIRST_RETRY_MS; this.flush(); this.refresh(); });
  }

  save() {
    try { localStorage.setItem(this.storeKey, JSON.stringify(this.local)); } catch (e) { /* full */ }
  }

  request(path, body) {
    this.sent += 1;
    return fetch(this.base + path, {
      method: body === undefined ? "GET" : "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": csrf() },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
  }

  get steps() { return this.local.outbox; }

  has(type) { return this.local.outbox.some((s) => s.type === type); }

  pendingGame(n) {
    let found = null;
    this.local.outbox.forEach((step) => { if (step.type === "game" && step.number === n) found = step; });
    return found;
  }

  queue(step) {
    step.key = newKey();
    this.local.outbox.push(step);
    this.save();
    this.hooks.render();
    this.flush();
  }

  // A game goes with the stamp of the game it was typed on (the base): the server keeps it
  // only if nobody changed that game since. A step not yet sent is replaced (it keeps its
  // base); after a step already on its way, the new one waits for that step's answer.
  queueGame(n, game, remove) {
    const last = this.pendingGame(n);
    if (last && !last.tried) {
      last.game = game;
      last.remove = !!remove;
      last.key = newKey();
      this.save(); this.hooks.render(); this.flush();
      return;
    }
    const step = { type: "game", number: n, game: game, remove: !!remove };
    if (last) step.after = last.key;
    else step.base = this.local.bases[n] !== undefined ? this.local.bases[n] : this.hooks.stampOf(n);
    delete this.local.bases[n];
    this.queue(step);
  }

  // the steps that were to follow a refused one go too: the newest of them is "mine"
  dropFollowers(step) {
    let latest = step;
    this.local.outbox = this.local.outbox.filter((s) => {
      if (s.after === step.key) { latest = s; return false; }
      return true;
    });
    return latest;
  }

  flush() {
    if (this.sending || !this.local.outbox.length || this.connection === "dead") return;
    const step = this.local.outbox[0];
    step.tried = true;
    this.save();
    this.sending = true;
    this.hooks.status();  // only the status line: the card being typed is not redrawn
    this.request(PATHS[step.type], stepBody(step)).then((response) => {
      return response.json().catch(() => null).then((answer) => ({ status: response.status, answer: answer }));
    }).then((result) => {
      this.sending = false;
      const answer = result.answer || {};
      if (result.status === 200 && answer.ok) {
        this.local.outbox.shift();
        if (step.type === "game") {  // the steps waiting for it go on the game's new stamp
          const stamp = answer.state ? answer.state.games[step.number - 1].stamp : "";
          this.local.outbox.forEach((s) => { if (s.after === step.key) { s.base = stamp; delete s.after; } });
        }
        this.connection = "ok";
        this.retryDelay = FIRST_RETRY_MS;
        this.hooks.accepted(step, answer);
      } else if (result.status === 404 && !answer.problems) {  // the link is dead: keep everything
        this.connection = "dead";
        this.hooks.render();
        return;
      } else if (result.status === 400 || result.status === 409) {  // refused: the page shows why
        this.local.outbox.shift();
        this.hooks.refused(step, answer);
        if (answer.locked) this.refresh();
        this.connection = "ok";
      } else {
        this.wait();  // 429 or a server error: try again later
        return;
      }
      this.save();
      this.hooks.render();
      this.flush();
    }).catch(() => {
      this.sending = false;
      this.wait();
    });
  }

  wait() {
    this.connection = "offline";
    this.hooks.render();
    if (this.retryTimer) return;
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = null;
      this.flush();
      if (!this.local.outbox.length) this.refresh();
    }, this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, LAST_RETRY_MS);
  }

  // the server's state of the sheet (only what changed since the stamp the page has)
  refresh(since) {
    const query = since ? "?since=" + encodeURIComponent(since) : "";
    const seq = this.sent + 1;
    this.request("stand/" + query).then((response) => response.json()).then((answer) => {
      if (!answer || !answer.ok) return;
      this.connection = this.connection === "dead" ? "dead" : "ok";
      if (answer.state) this.hooks.state(answer.state, seq);
      this.hooks.render();
    }).catch(() => { /* offline: the next step's retry will tell */ });
  }

  idle() { return !this.sending && !this.local.outbox.length && this.connection !== "dead"; }
}
