// The door's check-in page: the search field keeps the focus (a USB scanner types the code
// and Enter into whatever has it); Enter on the empty field presses the shown person's
// "Angekommen", F8 and F9 their "paid" and "slip".
(function () {
  "use strict";
  const field = document.getElementById("door-q");
  const form = document.getElementById("door-form");
  if (!field || !form) return;
  const focusField = () => { if (document.activeElement !== field) field.focus(); };
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "door-result") {
      field.value = "";
      focusField();
    }
  });
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt === form && !field.value.trim()) event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target === field && !field.value.trim()) {
      // Enter on the empty field: the shown person's "Angekommen" (a number or a name only
      // finds a person; a scan types its code and Enter, so the field is never empty then)
      const arrive = document.querySelector('#door-result [data-key="Enter"]');
      event.preventDefault();
      if (arrive) arrive.click();
    } else if (event.key === "F8" || event.key === "F9") {
      const target = document.querySelector(`#door-result [data-key="${event.key}"]`);
      event.preventDefault();
      if (target) target.click();
    } else if (event.key === "Escape") {
      field.value = "";
      focusField();
    }
  });
  // clicks elsewhere (a button, the page) hand the focus back to the field
  document.addEventListener("click", () => setTimeout(focusField, 0));
  window.addEventListener("focus", focusField);
})();
