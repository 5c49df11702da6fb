// Keeps the beneficial owners' running total current while typing; the page works without it.
(function () {
  "use strict";
  var output = document.querySelector("[data-owners-total]");
  if (!output) { return; }
  function update() {
    var total = 0;
    document.querySelectorAll("input[name$='-percentageOwnership']").forEach(function (input) {
      var value = parseFloat(input.value);
      if (!isNaN(value)) { total += value; }
    });
    output.textContent = String(Math.round(total * 100) / 100);
  }
  document.addEventListener("input", function (event) {
    if (event.target.name && event.target.name.endsWith("-percentageOwnership")) { update(); }
  });
})();
