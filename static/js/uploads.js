// Refuses a file over the upload limit before it is sent, beside its field, as the server
// would after reading it all; the page works without it (the server says the same).
(function () {
  "use strict";
  function showError(input, message) {
    var box = input.closest(".field");
    var list = document.getElementById(input.id + "-errors");
    if (!list) {
      list = document.createElement("ul");
      list.className = "field__errors";
      list.id = input.id + "-errors";
      box.appendChild(list);
      var described = (input.getAttribute("aria-describedby") || "").split(" ");
      described.push(list.id);
      input.setAttribute("aria-describedby", described.join(" ").trim());
    }
    list.replaceChildren(document.createElement("li"));
    list.firstChild.textContent = message;
    box.classList.add("field--invalid");
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
  document.querySelectorAll("form.upload[data-max-bytes]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var input = form.querySelector("input[type=file]");
      var file = input && input.files[0];
      if (file && file.size > Number(form.dataset.maxBytes)) {
        event.preventDefault();
        showError(input, form.dataset.tooLarge);
      }
    });
  });
})();
