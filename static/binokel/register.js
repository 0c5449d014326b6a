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

// Registration at full typing speed: Enter sends the form in the background and empties it at
// once, so the next name typed goes into the fresh field while the first is on its way (a page
// load would swallow those keys). The sends go one after the other, in the order typed (start
// numbers follow it); the list and the messages come back with each answer. A refused or
// unsent entry is named in the status line and, when nothing new was typed yet, put back into
// the form. Without JavaScript the form posts and the page reloads as before.
(function () {
  "use strict";
  const form = document.getElementById("quick-add");
  if (!form || !window.fetch || !window.FormData) return;
  const status = document.createElement("ul");
  status.className = "messages";
  status.id = "quick-add-status";
  status.setAttribute("role", "status");
  form.parentNode.insertBefore(status, form);
  let queue = Promise.resolve();
  let pending = 0;
  form.dataset.pending = "0";

  function say(items) {
    status.replaceChildren();
    items.forEach(function (item) {
      const li = document.createElement("li");
      li.className = item.level;
      li.textContent = item.text;
      status.appendChild(li);
    });
  }

  function typedFields() {
    return Array.from(form.querySelectorAll("input")).filter(function (input) {
      return input.type !== "hidden" && input.type !== "checkbox" && input.value !== "";
    });
  }

  function putBack(data) {
    if (typedFields().length) return; // the next entrant is being typed: keep it
    form.querySelectorAll("input").forEach(function (input) {
      if (input.name === "csrfmiddlewaretoken") return;
      if (input.type === "checkbox") {
        input.checked = data.getAll(input.name).indexOf(input.value) !== -1;
      } else if (data.has(input.name)) {
        input.value = data.get(input.name);
      }
    });
  }

  function clear() {
    form.querySelectorAll("input").forEach(function (input) {
      if (input.name === "csrfmiddlewaretoken") return;
      if (input.type === "checkbox") input.checked = false;
      else input.value = "";
    });
    form.querySelectorAll(".suggestions").forEach(function (box) {
      box.replaceChildren();
    });
    form.querySelectorAll(".error").forEach(function (box) {
      box.remove();
    });
  }

  function send(data) {
    const name = data.get("name") + (data.get("partner") ? " / " + data.get("partner") : "");
    return fetch(form.action || window.location.href, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Quick-Add": "1", Accept: "application/json" },
    })
      .then(function (response) {
        return response.json().then(
          function (answer) {
            return answer;
          },
          function () {
            return { ok: false, errors: [form.dataset.unsent + " (" + response.status + ")"] };
          }
        );
      })
      .catch(function () {
        return { ok: false, errors: [form.dataset.unsent] };
      })
      .then(function (answer) {
        if (answer.ok) {
          document.querySelector("#entrants tbody").innerHTML = answer.rows;
          say(answer.messages);
        } else {
          say(
            [{ level: "error", text: form.dataset.refused.replace("%(name)s", name) }].concat(
              answer.errors.map(function (text) {
                return { level: "error", text: text };
              })
            )
          );
          putBack(data);
        }
      });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const data = new FormData(form);
    if (!String(data.get("name") || "").trim()) return;
    if (window.htmx) {
      form.querySelectorAll("[hx-get]").forEach(function (input) {
        window.htmx.trigger(input, "htmx:abort");
      });
    }
    clear();
    document.getElementById("id_name").focus();
    pending += 1;
    form.dataset.pending = String(pending);
    queue = queue.then(function () {
      return send(data).then(function () {
        pending -= 1;
        form.dataset.pending = String(pending);
      });
    });
  });
})();
