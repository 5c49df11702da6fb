/* The merchant's camera check, before the gateway's frame loads (templates/verification/_camera_check.html).
 *
 * On load: a secure context, the viewport's height and the connection are checked. A tap on
 * #camera-start asks for the camera and microphone (getUserMedia); once allowed, the stream is
 * stopped and the frame's data-src becomes its src. Every outcome is said in the words of the
 * section's data-text-* attributes and reported to data-check-url (POST, CSRF token), where
 * ops see it. A check passed once in this tab is not asked again (the merchant back from
 * DigiLocker, opened outside the frame, goes straight on). The script holds no words of its own.
 */
(function () {
  "use strict";

  var root = document.getElementById("camera-check");
  var frame = document.getElementById("verification-frame");
  var button = document.getElementById("camera-start");
  if (!root || !frame || !button) {
    return;
  }
  var result = root.querySelector("[data-role='check-result']");
  var note = root.querySelector("[data-role='check-note']");
  /* Below this many CSS pixels of height the gateway's video page does not fit. */
  var MIN_HEIGHT = 480;
  var SLOW = ["slow-2g", "2g"];
  var PASSED = "portal.camera-check";

  function text(key) {
    return root.getAttribute("data-text-" + key.replace(/_/g, "-")) || "";
  }

  function report(found) {
    fetch(root.dataset.checkUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": root.dataset.csrfToken },
      body: new URLSearchParams({ found: found })
    }).catch(function () { /* a lost report only leaves ops less to read */ });
  }

  function say(found) {
    result.textContent = text(found);
    result.dataset.found = found;
  }

  function fail(found) {
    say(found);
    report(found);
  }

  function start() {
    frame.src = frame.dataset.src;
    frame.hidden = false;
    button.hidden = true;
    say("ready");
  }

  function remembered() {
    try {
      return window.sessionStorage.getItem(PASSED) === location.pathname;
    } catch (error) {
      return false;
    }
  }

  function remember() {
    try {
      window.sessionStorage.setItem(PASSED, location.pathname);
    } catch (error) { /* storage off: the check is asked again next time */ }
  }

  function refusal(error) {
    var name = error && error.name;
    if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") {
      return "camera_denied";
    }
    if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") {
      return "camera_missing";
    }
    return "camera_unavailable";
  }

  var notes = [];
  if (window.innerHeight < MIN_HEIGHT) {
    notes.push("small_screen");
  }
  var connection = navigator.connection;
  if (connection && SLOW.indexOf(connection.effectiveType) >= 0) {
    notes.push("slow_connection");
  }
  notes.forEach(report);
  note.textContent = notes.map(text).join(" ");

  if (!window.isSecureContext) {
    fail("insecure_context");
    button.disabled = true;
    return;
  }

  if (remembered()) {
    start();
    return;
  }

  button.addEventListener("click", function () {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      fail("camera_unavailable");
      return;
    }
    say("asking");
    navigator.mediaDevices.getUserMedia({ video: true, audio: true }).then(function (stream) {
      stream.getTracks().forEach(function (track) { track.stop(); });
      remember();
      report("");
      start();
    }, function (error) {
      fail(refusal(error));
    });
  });
})();
