// Registration: the register's players offered while a name is typed (htmx fills
// #suggest-player / #suggest-partner_player). Choosing one puts its id in the hidden field, so
// the new entrant is linked to that player; typing the name again drops the choice.
(function () {
  "use strict";
  const form = document.getElementById("quick-add");
  if (!form) return;
  const inputs = { player: "id_name", partner_player: "id_partner" };

  form.addEventListener("click", function (event) {
    const button = event.target.closest("button.suggestion");
    if (!button) return;
    const field = button.dataset.field;
    const hidden = document.getElementById("id_" + field);
    const name = document.getElementById(inputs[field]);
    hidden.value = button.dataset.player;
    name.value = button.dataset.name;
    const club = document.getElementById("id_club");
    if (field === "player" && club && !club.value) club.value = button.dataset.club;
    button.parentElement.querySelectorAll("button.suggestion").forEach(function (b) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    });
    name.focus();
  });

  Object.keys(inputs).forEach(function (field) {
    const name = document.getElementById(inputs[field]);
    if (!name) return;
    name.addEventListener("input", function () {
      document.getElementById("id_" + field).value = "";
    });
  });
})();
