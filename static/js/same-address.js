// The business step: the operating address is asked for only when the business does not
// operate at its registered address, so its block is hidden while that box is ticked. Nothing
// typed in it is lost: hidden fields are still sent, and unticking shows them again.
(function () {
  "use strict";
  var box = document.getElementById("address-isOperatingSameAsRegistered");
  var block = document.getElementById("address-businessOperatingAddress");
  if (!box || !block) {
    return;
  }
  function follow() {
    block.hidden = box.checked;
  }
  box.addEventListener("change", follow);
  follow();
})();
