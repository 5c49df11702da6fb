/* The embedded verification page: listen to the gateway iframe's postMessage events.
 *
 * Configuration comes from data attributes on #verification (no inline script):
 *   data-gateway-origin  the only origin whose messages count (the portal's setting)
 *   data-confirm-url     where completion is confirmed server-side (POST, CSRF header)
 *   data-onboarding-id   messages about another record are ignored
 *   data-csrf-token      the CSRF token for the confirm request
 *   data-text-*          the page's sentences (checking, unconfirmed, outside-digilocker,
 *                        outside-other, closed): ops and the merchant read different words
 *
 * A message is only a hint: it moves the progress list, and "complete" makes the portal read
 * the status from the gateway; the page then shows what the server says, never the message.
 * "Complete" may come as the bare string (the gateway's iframe docs).
 *
 * REDIRECT (the iframe docs: {eventName, eventData{uri, stepName: DIGILOCKER}}) asks for the
 * uri to be opened outside the frame: this page goes there top-level, but only to an https
 * address or to the gateway's own origin. The person comes back through the callBackUrl the
 * link was minted with, which is this page: it asks for a fresh link and the frame resumes.
 */
(function () {
  "use strict";

  var STEP = "PARTNER_MERCHANT_VERIFICATION_STEP";
  var COMPLETE = "PARTNER_MERCHANT_VERIFICATION_COMPLETE";
  var CLOSED = "PARTNER_MERCHANT_VERIFICATION_CLOSED";
  var REDIRECT = "PARTNER_MERCHANT_VERIFICATION_REDIRECT";

  var root = document.getElementById("verification");
  var frame = document.getElementById("verification-frame");
  if (!root || !frame) {
    return;
  }
  var origin = root.dataset.gatewayOrigin;
  var result = root.querySelector("[data-role='result']");
  var confirming = false;

  /* One of the page's sentences (data-text-NAME on #verification). */
  function text(name) {
    return root.getAttribute("data-text-" + name) || "";
  }

  function show(sentence, state) {
    result.textContent = sentence;
    result.dataset.state = state;
  }

  /* The message as {eventName, eventData}, or null. A bare string names the event. */
  function parse(data) {
    if (typeof data === "string") {
      if (data === COMPLETE || data === CLOSED) {
        return { eventName: data, eventData: {} };
      }
      try {
        data = JSON.parse(data);
      } catch (error) {
        return null;
      }
    }
    if (!data || typeof data !== "object" || typeof data.eventName !== "string") {
      return null;
    }
    var eventData = data.eventData && typeof data.eventData === "object" ? data.eventData : {};
    return { eventName: data.eventName, eventData: eventData };
  }

  function setStep(item, done) {
    item.dataset.state = done ? "done" : "waiting";
    item.querySelector(".verification-progress__state").textContent = done ? "Done" : "Waiting";
  }

  function markStep(stepName) {
    var items = root.querySelectorAll(".verification-progress__step");
    Array.prototype.forEach.call(items, function (item) {
      if (item.dataset.step === stepName) {
        setStep(item, true);
      }
    });
  }

  /* The steps as the gateway's status read says (a message is only a hint). */
  function showSteps(steps) {
    var items = root.querySelectorAll(".verification-progress__step");
    Array.prototype.forEach.call(items, function (item) {
      if (steps && typeof steps[item.dataset.step] === "boolean") {
        setStep(item, steps[item.dataset.step]);
      }
    });
  }

  function confirm() {
    if (confirming) {
      return;
    }
    confirming = true;
    show(text("checking"), "pending");
    fetch(root.dataset.confirmUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": root.dataset.csrfToken }
    }).then(function (response) {
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
      return response.json();
    }).then(function (answer) {
      root.dataset.status = answer.status || "";
      showSteps(answer.steps);
      show(answer.message, answer.confirmed ? "confirmed" : "unconfirmed");
      root.querySelector("[data-role='next']").textContent = answer.next || "";
    }).catch(function () {
      show(text("unconfirmed"), "unconfirmed");
    }).then(function () {
      confirming = false;
    });
  }

  /* The uri as an absolute URL this page may go to (https, or the gateway's origin), or null. */
  function allowedTarget(uri) {
    var target;
    if (typeof uri !== "string" || !uri) {
      return null;
    }
    try {
      target = new URL(uri, origin);
    } catch (error) {
      return null;
    }
    return target.protocol === "https:" || target.origin === origin ? target : null;
  }

  function openOutside(eventData) {
    var target = allowedTarget(eventData.uri);
    if (!target) {
      return;
    }
    show(text(eventData.stepName === "DIGILOCKER" ? "outside-digilocker" : "outside-other"),
         "redirecting");
    window.location.assign(target.href);
  }

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) {
      return;
    }
    var message = parse(event.data);
    if (!message) {
      return;
    }
    var about = message.eventData.onboardingId;
    if (about && about !== root.dataset.onboardingId) {
      return;
    }
    if (message.eventName === STEP) {
      markStep(message.eventData.stepName);
    } else if (message.eventName === COMPLETE) {
      confirm();
    } else if (message.eventName === REDIRECT) {
      openOutside(message.eventData);
    } else if (message.eventName === CLOSED) {
      show(text("closed"), "closed");
    }
  });
}());
