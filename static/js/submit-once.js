/* Forms marked data-submit-once send once: a second click (or a double click) while the first
 * post is on its way does nothing, so a payment link is not opened twice by one person. */
(function () {
  "use strict";
  document.querySelectorAll("form[data-submit-once]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) {
        event.preventDefault();
        return;
      }
      form.dataset.sent = "true";
      form.querySelectorAll("button[type=submit]").forEach(function (button) {
        button.setAttribute("aria-disabled", "true");
      });
    });
  });
})();
