// Posts the messages the server put on the page to the parent window, to its exact origin.
"use strict";
(function () {
  var body = document.body;
  var targetOrigin = body.dataset.targetOrigin;
  var messages = JSON.parse(body.dataset.messages || "[]");
  if (window.parent !== window && targetOrigin) {
    messages.forEach(function (message) {
      window.parent.postMessage(message, targetOrigin);
    });
  }
  // Done with this page's messages: whoever drives the page (a test) may go on without
  // leaving before they were posted.
  body.dataset.posted = "true";
})();
