/* The computer's page follows the hand-over to the phone (templates/verification/phone.html).
 *
 * While the code waits or the phone works, it reads the section's data-status-url every few
 * seconds and says the state in the words of the section's data-text-<state> attributes; the
 * server says "finished" only once a status read from the gateway found verification done;
 * then what could hand over again ([data-until-finished]) goes away.
 * The script holds no words of its own.
 */
(function () {
  "use strict";

  var root = document.getElementById("phone-handover");
  if (!root) {
    return;
  }
  var stateLine = root.querySelector("[data-role='state']");
  var nextLine = root.querySelector("[data-role='next']");
  var code = root.querySelector(".phone-handover__code");
  var FOLLOWED = ["waiting", "opened"];
  var EVERY_MS = 3000;

  function show(answer) {
    root.dataset.state = answer.state;
    stateLine.dataset.state = answer.state;
    stateLine.textContent = root.getAttribute("data-text-" + answer.state) || answer.message;
    nextLine.textContent = answer.next || "";
    if (code && answer.state !== "waiting") {
      code.hidden = true;
    }
    if (answer.state === "finished") {
      document.querySelectorAll("[data-until-finished]").forEach(function (element) {
        element.hidden = true;
      });
    }
  }

  function follow() {
    fetch(root.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        return response.json();
      })
      .then(function (answer) {
        show(answer);
        if (FOLLOWED.indexOf(answer.state) !== -1) {
          window.setTimeout(follow, EVERY_MS);
        }
      })
      .catch(function () {
        nextLine.textContent = root.getAttribute("data-text-lost");
        window.setTimeout(follow, EVERY_MS);
      });
  }

  if (FOLLOWED.indexOf(root.dataset.state) !== -1) {
    window.setTimeout(follow, EVERY_MS);
  }
}());
