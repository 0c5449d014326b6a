// The beamer: as many rows as the screen holds at a size readable from the back of the hall,
// page after page, every place shown once per cycle. New results arrive in place (live.js asks
// every few seconds): the rows are taken again and the page being shown stays, so a result
// is on the screen within seconds, not at the end of the cycle.
(function () {
  "use strict";
  var box = document.getElementById("beamer");
  if (!box) return;
  var table = document.getElementById("beamer-table");
  var rows = [];
  function takeRows() { rows = Array.prototype.slice.call(table.tBodies[0].rows); }
  takeRows();
  var label = document.getElementById("beamer-page");
  var seconds = Number(box.dataset.seconds) || 15;
  var perPage = rows.length;
  var pages = 1;
  var page = 0;
  var timer = null;

  function fit() {  // how many rows the screen holds below the heading
    rows.forEach(function (row) { row.hidden = false; });
    var first = rows[0];
    if (!first) return;
    var top = table.tBodies[0].getBoundingClientRect().top + window.scrollY;
    var height = first.getBoundingClientRect().height || 1;
    var room = window.innerHeight - top - 8;
    perPage = Math.max(1, Math.floor(room / height));
    pages = Math.max(1, Math.ceil(rows.length / perPage));
  }
  function show(n) {
    page = ((n % pages) + pages) % pages;
    rows.forEach(function (row, i) {
      row.hidden = Math.floor(i / perPage) !== page;
    });
    label.textContent = pages > 1 ? "(" + box.dataset.pageLabel + " " + (page + 1) + "/" + pages + ")" : "";
    box.dataset.page = String(page + 1);
    box.dataset.pages = String(pages);
  }
  function next() {
    show(page + 1 >= pages ? 0 : page + 1);
  }
  document.addEventListener("binokel:live", function () {  // new results, in place
    takeRows();
    fit();
    show(Math.min(page, pages - 1));
    box.dataset.updates = String(Number(box.dataset.updates || "0") + 1);
  });
  function start() {
    fit();
    show(0);
    if (timer) window.clearInterval(timer);
    timer = window.setInterval(next, seconds * 1000);
  }
  window.addEventListener("resize", function () { fit(); show(0); });
  window.binokelBeamer = {  // for a look from outside (tests; a desk wanting to hold a page)
    show: show,
    stop: function () { window.clearInterval(timer); timer = null; }
  };
  start();
  box.dataset.ready = "1";
})();
