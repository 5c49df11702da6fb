// Bulk import progress: poll the JSON endpoint, update the bar and counts, reload when done.
(function () {
  "use strict";
  var section = document.getElementById("bulk-progress");
  if (!section || section.dataset.state !== "running") { return; }
  var bar = document.getElementById("bulk-progress-bar");
  var done = section.querySelector(".bulk-done");
  var refresh = section.querySelector(".bulk-refresh");
  if (refresh) { refresh.hidden = true; }

  function show(progress) {
    bar.max = progress.total || 1;
    bar.value = progress.done;
    done.textContent = String(progress.done);
    Object.keys(progress.counts).forEach(function (key) {
      var cell = section.querySelector('[data-count="' + key + '"]');
      if (cell) { cell.textContent = String(progress.counts[key]); }
    });
  }

  function poll() {
    fetch(section.dataset.progressUrl, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      })
      .then(function (progress) {
        show(progress);
        if (progress.finished) { window.location.reload(); } else { window.setTimeout(poll, 1500); }
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }

  window.setTimeout(poll, 1000);
}());
