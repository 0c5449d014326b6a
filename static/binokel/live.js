// Pages that follow the evening (a player's own page, the statistics, the prize giving, the
// beamer) ask the server for themselves again every few seconds and put the parts that changed
// in place: no reload, so the scroll position, the focus and a reader's place stay where they
// are (a meta refresh moves them all); nothing is fetched while the screen is hidden, and a
// screen that wakes up asks at once. The server keeps these pages in its cache and answers a
// poll that finds nothing new with "304 Not Modified" (the browser asks with its ETag).
//
// The page marks its root with data-live-seconds="N" and each part that may change with
// data-live-part and an id; after a change the page gets the event "binokel:live".
(function () {
  "use strict";
  var root = document.querySelector("[data-live-seconds]");
  if (!root || !window.fetch || !window.DOMParser) return;
  var seconds = Number(root.dataset.liveSeconds) || 20;
  var seen = {};  // the markup of each part as last fetched (the page may change its own copy)
  var busy = false;
  var failures = 0;
  var timer = null;

  Array.prototype.forEach.call(document.querySelectorAll("[data-live-part]"), function (part) {
    seen[part.id] = part.innerHTML;
  });

  function schedule() {
    window.clearTimeout(timer);
    // after failures (the hall's Wi-Fi dropped) ask less often, at most every 4 × N seconds
    timer = window.setTimeout(update, seconds * 1000 * Math.min(4, 1 + failures));
  }

  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var changed = [];
    Array.prototype.forEach.call(fresh.querySelectorAll("[data-live-part]"), function (part) {
      var here = document.getElementById(part.id);
      if (here && seen[part.id] !== part.innerHTML) {
        here.innerHTML = part.innerHTML;
        seen[part.id] = part.innerHTML;
        changed.push(part.id);
      }
    });
    root.dataset.liveAt = String(Date.now());
    if (changed.length) {
      document.dispatchEvent(new CustomEvent("binokel:live", { detail: { parts: changed } }));
    }
  }

  function update() {
    if (busy || document.hidden) { schedule(); return; }
    busy = true;
    // "no-cache": the browser asks with the ETag of what it holds, and a page that has not
    // changed comes back "304 Not Modified" (nothing made, nothing sent)
    window.fetch(window.location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) { failures = 0; apply(html); })
      .catch(function () { failures += 1; })
      .then(function () { busy = false; schedule(); });
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) update(); });
  window.binokelLive = { update: update };  // for a look from outside (tests)
  schedule();
})();
