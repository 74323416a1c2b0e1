// The campaign's live stream (DESIGN.md, "Live parts"). The server pushes each event as soon as
// its write commits (server-sent events, campaign/stream.py); where streaming fails (a proxy
// that buffers, no EventSource), the page polls for every event after the last id seen instead.
// Either way each event is re-dispatched on <body> as "zg:<kind>", and once more for each id in
// its data as "zg:<kind>:<key>=<id>", so htmx parts can refresh on what concerns them:
//   hx-trigger="zg:roll from:body"                    any roll
//   hx-trigger="zg:wounds:characters=12 from:body"    {"characters": [12, 14]}
//   hx-trigger="zg:combat:encounter=3 from:body"      {"encounter": 3}
// (Named events rather than htmx's [filter] expressions: those are compiled with eval, which
// the Content-Security-Policy forbids.)
// A page that reconnects (sleep, network, a server restart) resumes from the last id: nothing is
// missed or repeated.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="zg-live"]');
  if (!meta) return;
  var url = meta.getAttribute("data-url");
  var streamUrl = meta.getAttribute("data-stream");
  var after = parseInt(meta.getAttribute("data-after"), 10) || 0;
  var every = parseInt(meta.getAttribute("data-every"), 10) || 1500;
  var busy = false;
  var failures = 0;
  var offlineSince = null;

  // The connection state, always on screen: live, reconnecting, or offline since when.
  var state = document.createElement("p");
  state.className = "live-state";
  state.setAttribute("role", "status");
  state.setAttribute("aria-live", "polite");
  document.body.appendChild(state);

  function show(kind, text) {
    state.dataset.state = kind;
    state.textContent = text;
  }

  function connected() {
    failures = 0;
    offlineSince = null;
    if (state.dataset.state !== "live") show("live", "Live");
  }

  function lost() {
    failures += 1;
    if (offlineSince === null) offlineSince = new Date();
    if (failures < 3) {
      show("reconnecting", "Reconnecting…");
    } else {
      var hh = ("0" + offlineSince.getHours()).slice(-2), mm = ("0" + offlineSince.getMinutes()).slice(-2);
      show("offline", "Offline since " + hh + ":" + mm + ": changes will appear when the connection returns");
    }
  }
  show("live", "Live");

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

  function receive(event) {
    if (event.id <= after) return;  // never twice, even if a stream and a poll overlap
    after = event.id;
    dispatch(event);
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?after=" + after, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (body) {
        connected();
        body.events.forEach(receive);
        if (body.last > after) after = body.last;
      })
      .catch(function () { lost(); /* the next poll asks again from the same id */ })
      .then(function () { busy = false; });
  }

  var polling = null;
  function startPolling() {
    if (polling !== null) return;
    poll();
    polling = setInterval(poll, every);
    document.addEventListener("visibilitychange", poll);
  }

  // Pushed: the browser reconnects by itself, sending the last id it saw (Last-Event-ID). A ping
  // comes at least every 15 s; a stream silent for much longer, or one that never opens, is
  // given up for polling, which needs nothing from proxies.
  var PATIENCE = 40000;
  function stream() {
    var crossOrigin = streamUrl.indexOf("//") >= 0 && streamUrl.indexOf(location.origin + "/") !== 0;
    var source = new EventSource(streamUrl + "?after=" + after, {withCredentials: crossOrigin});
    var opened = false, failures = 0, watchdog = null;
    function alive() {
      clearTimeout(watchdog);
      watchdog = setTimeout(giveUp, PATIENCE);
    }
    function giveUp() {
      clearTimeout(watchdog);
      source.close();
      startPolling();
    }
    var quiet = null;  // a stream that ended is reopened at once: only a reopen that fails is news
    source.addEventListener("open", function () {
      opened = true;
      failures = 0;
      clearTimeout(quiet);
      connected();
      alive();
    });
    source.addEventListener("ping", function () { connected(); alive(); });
    source.addEventListener("zg", function (message) {
      connected();
      alive();
      receive(JSON.parse(message.data));
    });
    source.addEventListener("error", function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || (!opened && failures >= 3)) {
        lost();
        giveUp();
      } else if (failures > 1) {
        lost();
      } else {
        clearTimeout(quiet);
        quiet = setTimeout(lost, 5000);
      }
    });
    alive();
  }

  if (streamUrl && window.EventSource) {
    stream();
  } else {
    startPolling();
  }
})();
