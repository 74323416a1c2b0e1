// The campaign's live stream (DESIGN.md, "Live parts"): ask for every event after the last id
// seen, then re-dispatch each one on <body> as "zg:<kind>", and once more for each id in its
// data as "zg:<kind>:<key>=<id>", so htmx parts can refresh on what concerns them:
//   hx-trigger="zg:roll from:body"                    any roll
//   hx-trigger="zg:wounds:characters=12 from:body"    {"characters": [12, 14]}
//   hx-trigger="zg:combat:encounter=3 from:body"      {"encounter": 3}
// (Named events rather than htmx's [filter] expressions: those are compiled with eval, which
// the Content-Security-Policy forbids.)
// A page that reconnects (sleep, network) resumes from the last id: nothing is missed or repeated.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="zg-live"]');
  if (!meta) return;
  var url = meta.getAttribute("data-url");
  var after = parseInt(meta.getAttribute("data-after"), 10) || 0;
  var every = parseInt(meta.getAttribute("data-every"), 10) || 1500;
  var busy = false;

  function dispatch(event) {
    var name = "zg:" + event.kind;
    var data = event.data || {};
    document.body.dispatchEvent(new CustomEvent(name, {detail: data}));
    Object.keys(data).forEach(function (key) {
      [].concat(data[key]).forEach(function (value) {
        if (typeof value === "number" && Math.floor(value) === value) {
          document.body.dispatchEvent(new CustomEvent(name + ":" + key + "=" + value, {detail: data}));
        }
      });
    });
  }

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
          dispatch(event);
        });
        if (body.last > after) after = body.last;
      })
      .catch(function () { /* offline for a moment: the next poll asks again from the same id */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
