/* Nothing typed on a step is lost by leaving it. A click on a link of the page (a step tile,
 * the merchant summary, the menu) while the step's form holds unsaved changes saves them as a
 * draft first, then opens that link: the user meant to go there, and a draft is what "Save
 * draft" would have kept. Leaving any other way (Back, reload, closing the tab, another form)
 * asks first, as the browser words it. "Fill every step" asks in words before it replaces
 * what was typed here. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-keeps-typing]");
  if (!form) {
    return;
  }
  var values = function () {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "leave_to" && name !== "csrf_token") {
        pairs.push(name + "=" + (typeof value === "string" ? value : value.name));
      }
    });
    return pairs.join("&");
  };
  var loaded = values();
  var leaving = false;
  var changed = function () {
    return !leaving && values() !== loaded;
  };
  form.addEventListener("submit", function () {
    leaving = true;
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey ||
        event.ctrlKey || event.shiftKey || event.altKey || link.hasAttribute("download") ||
        (link.target && link.target !== "_self")) {
      return;
    }
    var url = new URL(link.href, window.location.href);
    var samePage = url.pathname === window.location.pathname && url.search === window.location.search;
    if (url.origin !== window.location.origin || (samePage && url.hash) || !changed()) {
      return;
    }
    event.preventDefault();
    form.querySelector("input[name=leave_to]").value = url.pathname + url.search + url.hash;
    leaving = true;
    form.requestSubmit(form.querySelector(".actions button[value=draft]"));
  });

  var picker = document.querySelector("form.scenario-picker");
  if (picker) {
    picker.addEventListener("submit", function (event) {
      if (!changed()) {
        return;
      }
      if (window.confirm("You typed on this step and have not saved it. \"Fill every step\" " +
                         "replaces what you typed here with the test data. Fill anyway?")) {
        leaving = true;
      } else {
        event.preventDefault();
      }
    });
  }

  window.addEventListener("beforeunload", function (event) {
    if (changed()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();
