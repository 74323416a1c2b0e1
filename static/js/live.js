// The campaign's live stream (DESIGN.md, "Live parts"): ask for every event after the last id
// seen, then re-dispatch each one on <body> as "zg:<kind>" so htmx parts can refresh on it:
//   hx-trigger="zg:wounds[detail.characters.includes(12)] from:body"
// A page that reconnects (sleep, network) resumes from the last id: nothing is missed or repeated.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="zg-live"]');
  if (!meta) return;
  var url = meta.getAttribute("data-url");
  var after = parseInt(meta.getAttribute("data-after"), 10) || 0;
  var every = parseInt(meta.getAttribute("data-every"), 10) || 1500;
  var busy = false;

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?after=" + after, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body) return;
        body.events.forEach(function (event) {
          if (event.id <= after) return;  // never twice, even if two answers overlap
          after = event.id;
          document.body.dispatchEvent(new CustomEvent("zg:" + event.kind, {detail: event.data}));
        });
        if (body.last > after) after = body.last;
      })
      .catch(function () { /* offline for a moment: the next poll asks again from the same id */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
