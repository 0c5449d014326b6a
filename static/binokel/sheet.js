// Score sheet helpers: Enter jumps to the next game, the last party's Stiche is 250 minus the others.
(function () {
  "use strict";
  var form = document.getElementById("sheet");
  if (!form) return;
  var kind = form.dataset.kind;

  function rowInputs(game, selector) {
    return Array.prototype.slice.call(
      form.querySelectorAll('tr.game[data-game="' + game + '"] ' + selector));
  }

  function activeTricks(game) {
    var inputs = rowInputs(game, "input.tricks");
    if (kind === "four_sitout") {
      var dealerInput = form.querySelector('[name="g' + game + '-dealer"]');
      var dealer = dealerInput ? (dealerInput.value || dealerInput.placeholder) : "";
      inputs = inputs.filter(function (i) { return i.dataset.col !== dealer; });
    }
    return inputs;
  }

  function autofill(game) {
    var gameKind = form.querySelector('[name="g' + game + '-kind"]').value;
    if (gameKind === "conceded") return;
    var inputs = activeTricks(game);
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
    last.value = String(250 - sum);
    last.dataset.auto = "1";
  }

  form.addEventListener("input", function (event) {
    var el = event.target;
    if (!el.classList || !el.classList.contains("tricks")) return;
    if (el.dataset.auto === "1") delete el.dataset.auto;
    var row = el.closest("tr.game");
    if (row) autofill(row.dataset.game);
  }, true);

  // After each live check: the effective dealer of every game becomes the dealer field's hint.
  document.body.addEventListener("htmx:afterSettle", function () {
    form.querySelectorAll("[data-seat]").forEach(function (span) {
      var game = span.id.split("-")[0].slice(1);
      var input = form.querySelector('[name="g' + game + '-dealer"]');
      if (input) input.placeholder = span.dataset.seat;
    });
  });

  // A game changed to "abgeschrieben" has no tricks: drop the ones filled in automatically.
  form.addEventListener("change", function (event) {
    var el = event.target;
    if (!el.name || !/^g\d+-kind$/.test(el.name) || el.value !== "conceded") return;
    var game = el.name.split("-")[0].slice(1);
    rowInputs(game, "input.tricks").forEach(function (i) {
      if (i.dataset.auto === "1") { i.value = ""; delete i.dataset.auto; }
    });
  }, true);

  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName === "BUTTON") return;
    event.preventDefault();
    var row = event.target.closest("tr");
    var game = row ? parseInt(row.dataset.game, 10) : NaN;
    var next = isNaN(game) ? null : form.querySelector('[name="g' + (game + 1) + '-declarer"]');
    (next || document.getElementById("confirm")).focus();
  });
})();
