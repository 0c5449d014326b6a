// The desk's score sheet: keyboard flow, the last party's Stiche filled in, a live check that
// never shows a stale state, and nothing typed ever lost (browser copy + server draft + saves
// that keep the page when they fail). Fields are found by data-field / data-col, never by name.
(function () {
  "use strict";
  var form = document.getElementById("sheet");
  if (!form) return;
  var kind = form.dataset.kind;
  var storeKey = form.dataset.store;
  var NUMERIC = ["declarer", "bid", "meld", "tricks", "dealer", "written", "penalty",
    "written-total"];
  var TOTAL_EYES = parseInt(form.dataset.totalEyes || "250", 10);
  var KINDS = {};  // letter -> kind, as the rule set plays them (the select's options)
  var firstKind = form.querySelector('[data-field="kind"]');
  if (firstKind) {
    Array.prototype.forEach.call(firstKind.options, function (o) { KINDS[o.dataset.key] = o.value; });
  }

  // --- sequence numbers: every typing state gets a larger one, also across reloads ------------
  var seq = Math.max(Date.now() * 1000, parseInt(form.dataset.draftSeq || "0", 10) + 1);
  var typedSeq = 0;    // the state of the inputs now
  var sentSeq = 0;     // the newest state sent to the live check
  var shownSeq = 0;    // the state the page shows the results of
  var dirty = form.dataset.restored === "1";
  var saving = false;
  function nextSeq() { seq += 1; return seq; }

  function row(game) { return form.querySelector('tr.game[data-game="' + game + '"]'); }
  function extras(game) { return form.querySelector('tr.extras[data-game="' + game + '"]'); }
  function field(container, name, col) {
    if (!container) return null;
    var sel = '[data-field="' + name + '"]' + (col ? '[data-col="' + col + '"]' : "");
    return container.querySelector(sel);
  }
  function fieldsOf(container, name) {
    return container ? Array.prototype.slice.call(
      container.querySelectorAll('[data-field="' + name + '"]')) : [];
  }
  function gameOf(el) {
    var tr = el.closest("tr[data-game]");
    return tr ? parseInt(tr.dataset.game, 10) : NaN;
  }

  // --- what the page holds: every sheet field (they all carry data-field) --------------------
  function entries() {
    var out = {};
    form.querySelectorAll("[data-field]").forEach(function (el) {
      if (el.type === "checkbox") { if (el.checked) out[el.name] = "on"; }
      else if (el.value.trim() !== "") out[el.name] = el.value.trim();
    });
    return out;
  }
  function versionInput() { return form.querySelector('input[name="version"]'); }
  // the stamps of the version the page was opened on: a save changes only what differs
  function openedInput() { return form.querySelector('input[name="opened"]'); }

  // --- the browser's copy: written the moment something is typed ------------------------------
  function remember() {
    if (!storeKey) return;
    try {
      localStorage.setItem(storeKey, JSON.stringify({
        seq: typedSeq, version: versionInput().value, opened: openedInput().value,
        entries: entries(), at: Date.now()
      }));
    } catch (e) { /* private mode or full: the server draft still keeps it */ }
  }
  function forget() { try { localStorage.removeItem(storeKey); } catch (e) { /* ignore */ } }

  function restoreFromBrowser() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch (e) { kept = null; }
    if (!kept || !kept.entries) return false;
    if (kept.seq <= parseInt(form.dataset.draftSeq || "0", 10)) { forget(); return false; }
    var now = entries();
    if (JSON.stringify(sorted(now)) === JSON.stringify(sorted(kept.entries))) return false;
    form.querySelectorAll("[data-field]").forEach(function (el) {
      var v = kept.entries[el.name];
      if (el.type === "checkbox") el.checked = !!v;
      else el.value = v === undefined ? "" : v;
    });
    if (kept.version !== undefined) versionInput().value = kept.version;
    if (kept.opened !== undefined) openedInput().value = kept.opened;
    seq = Math.max(seq, kept.seq + 1);
    showProblem(form.dataset.msgRestored || "", "warning");
    return true;
  }
  function sorted(obj) {
    var out = {};
    Object.keys(obj).sort().forEach(function (k) { out[k] = obj[k]; });
    return out;
  }

  // --- the last party's Stiche: 250 minus the others ------------------------------------------
  function playingTricks(game) {
    var tr = row(game);
    return fieldsOf(tr, "tricks").filter(function (i) { return !i.readOnly; });
  }
  function autofill(game) {
    var select = field(row(game), "kind");
    if (!select) return;
    var chosen = select.options[select.selectedIndex];
    if (chosen && chosen.dataset.tricks === "0") return;
    var inputs = playingTricks(game);
    var open = inputs.filter(function (i) { return i.value.trim() === "" || i.dataset.auto === "1"; });
    if (open.length !== 1) return;
    var sum = 0;
    var ok = inputs.every(function (i) {
      if (i === open[0]) return true;
      var v = parseInt(i.value, 10);
      if (isNaN(v)) return false;
      sum += v;
      return true;
    });
    if (!ok) return;
    var last = open[0];
    if (last !== inputs[inputs.length - 1] && last.dataset.auto !== "1") return;
    last.value = String(TOTAL_EYES - sum);
    last.dataset.auto = "1";
  }

  function markFilled() {
    // After a reload the page no longer knows which Stiche filled themselves in: where a game's
    // Stiche add up to all the eyes, the last party's count as filled in, so that correcting an
    // earlier one fills the last again.
    form.querySelectorAll("tr.game").forEach(function (tr) {
      var inputs = playingTricks(tr.dataset.game);
      if (inputs.length < 2) return;
      var sum = 0;
      var all = inputs.every(function (i) {
        var v = parseInt(i.value, 10);
        sum += isNaN(v) ? 0 : v;
        return !isNaN(v);
      });
      if (all && sum === TOTAL_EYES) inputs[inputs.length - 1].dataset.auto = "1";
    });
  }

  // --- Tab order: only the fields a game of this kind and dealer can hold ---------------------
  function applyRow(game) {
    var tr = row(game);
    if (!tr) return;
    var span = document.getElementById("g" + game + "-dealer-name");
    var out = span ? span.dataset.sitsOut : "";
    var select = field(tr, "kind");
    var option = select.options[select.selectedIndex] || { dataset: {} };
    var noMelds = option.dataset.melds === "0";  // the engine's rules, as the page was given them
    var noTricks = option.dataset.tricks === "0";
    tr.classList.toggle("conceded", noTricks);
    tr.classList.toggle("durch", noMelds);
    fieldsOf(tr, "meld").concat(fieldsOf(tr, "tricks")).forEach(function (input) {
      var sitsOut = out !== "" && input.dataset.col === out;
      var unused = (input.dataset.field === "tricks" && noTricks) ||
                   (input.dataset.field === "meld" && noMelds);
      input.readOnly = sitsOut;
      input.closest("td").classList.toggle("out-col", sitsOut);
      input.closest("td").classList.toggle("unused", unused && !sitsOut);
      if (sitsOut || unused) input.setAttribute("tabindex", "-1");
      else input.removeAttribute("tabindex");
    });
  }
  function applyAll() {
    form.querySelectorAll("tr.game").forEach(function (tr) { applyRow(tr.dataset.game); });
  }

  // --- typing ---------------------------------------------------------------------------------
  function typed() {
    typedSeq = nextSeq();
    form.dataset.typed = String(typedSeq);
    dirty = true;
    remember();
    setState("typing");
  }
  form.addEventListener("input", function (event) {
    var el = event.target;
    if (el.dataset && el.dataset.field === "tricks") {
      if (el.dataset.auto === "1") delete el.dataset.auto;
      autofill(gameOf(el));
    }
    typed();
  }, true);
  form.addEventListener("change", function (event) {
    var el = event.target;
    if (el.dataset && el.dataset.field === "kind") {
      var game = gameOf(el);
      var picked = el.options[el.selectedIndex];
      if (picked && picked.dataset.tricks === "0") {
        // a conceded game has no tricks: drop the ones filled in automatically
        fieldsOf(row(game), "tricks").forEach(function (i) {
          if (i.dataset.auto === "1") { i.value = ""; delete i.dataset.auto; }
        });
      }
      applyRow(game);
    }
    typed();
  }, true);

  function setKind(game, value) {
    var select = field(row(game), "kind");
    if (!select || select.value === value) return;
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function toggle(box) {
    if (!box) return;
    tick(box, !box.checked);
  }
  function tick(box, on) {  // "o" ticks "ohne Stich" however often it is pressed; Shift+O unticks
    if (!box || box.checked === on) return;
    box.checked = on;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function firstOpen(game) {
    var tr = row(game);
    if (!tr) return document.getElementById("confirm");
    var order = ["declarer", "bid"].map(function (f) { return field(tr, f); })
      .concat(Array.prototype.slice.call(tr.querySelectorAll("input.meld, input.tricks"))
        .filter(function (i) { return i.getAttribute("tabindex") !== "-1"; }));
    return order.filter(function (i) { return i && i.value.trim() === ""; })[0] || field(tr, "declarer");
  }

  form.addEventListener("keydown", function (event) {
    var el = event.target;
    var name = el.dataset ? el.dataset.field : null;
    var game = gameOf(el);
    if (event.key === "Enter") {
      if (el.tagName === "BUTTON") return;
      event.preventDefault();
      if (el.closest("tr.extras")) { var back = firstOpen(game); if (back) back.focus(); return; }
      var next = isNaN(game) ? null : field(row(game + 1), "declarer");
      (next || document.getElementById("confirm")).focus();
      return;
    }
    if (event.key === "Escape" && el.closest("tr.extras")) {
      event.preventDefault();
      var home = firstOpen(game);
      if (home) home.focus();
      return;
    }
    if (NUMERIC.indexOf(name) < 0 || isNaN(game) || event.ctrlKey || event.altKey ||
        event.metaKey || event.key.length !== 1) return;
    var key = event.key.toLowerCase();
    if (!/[a-z]/.test(key)) return;
    event.preventDefault();  // the sheet holds numbers only: a letter is a command
    var col = el.dataset.col;
    var declarer = field(row(game), "declarer").value.trim();
    if (KINDS[key]) setKind(game, KINDS[key]);
    else if (key === "o") tick(field(extras(game), "notrick"), event.key !== "O");
    else if (key === "v") toggle(field(extras(game), "revoked", col || declarer));
    else if (key === "b") { var d = field(extras(game), "dealer"); if (d) d.focus(); }
    else if (key === "l") { var w = field(extras(game), "written", col || declarer); if (w) w.focus(); }
    else if (key === "m") { var p = field(extras(game), "penalty", col || declarer); if (p) p.focus(); }
  });

  // --- the live check: newest state only, with the sequence it belongs to ---------------------
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt !== form) return;
    sentSeq = typedSeq || nextSeq();
    event.detail.parameters.draft_seq = String(sentSeq);
    setState("checking");
  });
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt !== form) return;
    var answered = parseInt(event.detail.xhr.getResponseHeader("X-Sheet-Seq") || "0", 10);
    if (answered < sentSeq) { event.detail.shouldSwap = false; return; }  // an older reply
    shownSeq = answered;
  });
  document.body.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt !== form) return;
    form.querySelectorAll("[data-seat]").forEach(function (span) {
      var game = span.id.split("-")[0].slice(1);
      var input = field(extras(game), "dealer");
      if (input) input.placeholder = span.dataset.seat;
    });
    applyAll();
    form.dataset.shown = String(shownSeq);
    setState(shownSeq >= typedSeq ? "saved" : "typing");
  });
  document.body.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt === form) setState("offline");
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    if (event.detail.elt === form) setState("offline");
  });

  var retry = null;
  function setState(state) {
    form.dataset.state = state;
    var box = document.getElementById("autosave");
    if (box && state === "offline") {
      box.dataset.state = "offline";
      box.textContent = form.dataset.msgOffline || "";
      // try again until the server has the newest state
      if (!retry) retry = window.setTimeout(resend, 4000);
    }
  }
  function resend() {
    retry = null;
    if (form.dataset.state === "offline") form.dispatchEvent(new Event("change", { bubbles: true }));
  }
  window.addEventListener("online", resend);

  // --- saving: the page stays as it is when a save fails ---------------------------------------
  function showProblem(text, level) {
    var box = document.getElementById("save-problem");
    if (!box) return;
    box.hidden = !text;
    box.firstElementChild.className = level || "error";
    box.firstElementChild.textContent = text;
  }
  form.addEventListener("submit", function (event) {
    if (!window.fetch || !window.FormData) return;  // plain post
    event.preventDefault();
    if (saving) return;
    saving = true;
    var data = new FormData(form, event.submitter || undefined);
    if (event.submitter && event.submitter.name && !data.has(event.submitter.name)) {
      data.append(event.submitter.name, event.submitter.value);
    }
    var buttons = form.querySelectorAll("button[type=submit]");
    buttons.forEach(function (b) { b.disabled = true; });
    showProblem("");
    fetch(form.action || window.location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "X-Sheet-Save": "1", "Accept": "application/json" }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") < 0) return { ok: false, message: form.dataset.msgServer };
      return response.json();
    }, function () {
      return { ok: false, message: form.dataset.msgNetwork };  // no connection: nothing arrived
    }).then(function (answer) {
      if (answer.ok) {
        dirty = false;
        forget();
        window.location.assign(answer.redirect);
        return;
      }
      showProblem(answer.message, "error");
      if (answer.conflict) {
        document.getElementById("conflict-box").innerHTML = answer.conflict;
        versionInput().value = String(answer.version);
        remember();
      }
    }).catch(function () {
      showProblem(form.dataset.msgServer, "error");
    }).then(function () {
      saving = false;
      buttons.forEach(function (b) { b.disabled = false; });
    });
  });

  window.addEventListener("beforeunload", function (event) {
    if (!dirty || saving) return;
    event.preventDefault();
    event.returnValue = "";
  });

  // --- on load (after htmx has set the form up: both scripts are deferred) ---------------------
  function start() {
    applyAll();
    markFilled();
    if (restoreFromBrowser()) {
      dirty = true;
      applyAll();
      typed();
      form.dispatchEvent(new Event("change", { bubbles: true }));  // check and keep it
    }
    var first = firstOpen(parseInt(form.dataset.first || "1", 10));
    if (first && document.activeElement !== first) first.focus();
    form.dataset.ready = "1";
  }
  // deferred scripts run before DOMContentLoaded, htmx sets the form up in its handler of it
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
