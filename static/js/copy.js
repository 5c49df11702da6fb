/* Copy buttons: <button data-copy="ID"> copies the value (or text) of the element with that id
 * and says so in the nearest .copy-status. Without the clipboard API the text is selected so
 * the user can press Ctrl+C. The button's data-copied and data-selected, when set, are those
 * words in the page's language. */
(function () {
  "use strict";

  function select(source) {
    if (typeof source.select === "function") {
      source.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function announce(button, text) {
    var status = button.parentElement.querySelector(".copy-status");
    if (status) {
      status.textContent = text;
    }
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.getElementById(button.dataset.copy);
      if (!source) {
        return;
      }
      // a field's value; else the text as shown (a list's items one per line)
      var text = source.value !== undefined ? source.value : source.innerText;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () {
          announce(button, button.dataset.copied || "Copied.");
        }, function () {
          select(source);
          announce(button, button.dataset.selected || "Selected: press Ctrl+C to copy.");
        });
      } else {
        select(source);
        announce(button, button.dataset.selected || "Selected: press Ctrl+C to copy.");
      }
    });
  });
})();
