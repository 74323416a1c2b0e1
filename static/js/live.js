// The campaign's live stream (DESIGN.md, "Live by construction"). The server pushes each event
// as soon as its write commits (server-sent events, campaign/stream.py); where streaming fails (a
// proxy that buffers, no EventSource), the page polls for every event after the last id seen
// instead. Either way each event is re-dispatched on <body> as "zg:<kind>" (page logic such as
// "your turn" listens there), and once more for each id in its data as "zg:<kind>:<key>=<id>".
//
// Every part of the page that shows campaign data names the data keys it shows
// ({% live %}: data-live="name" data-live-keys="character:12 campaign:3/pools"), and every write
// publishes the keys it changed (a "changed" event). A part whose keys changed is brought to
// what a reload would show:
//   - parts the stream renders once per audience (data-live-part, campaign/parts.py) arrive
//     rendered right after their events and are swapped in without a request (while polling,
//     they are fetched on their own, with htmx, on "zg-refresh");
//   - every other part is fetched with its page (one request for all the parts that changed)
//     and swapped in by its name, keeping what the user was typing in it and where the focus was.
// A part is never fetched twice at once, and a change that arrives while it is being fetched
// fetches it once more afterwards: no refresh is dropped. A pushed copy that leaves a slot empty
// (a new form of this viewer's own: a new pool, a new turn) is followed by a fetch of the
// viewer's own copy.
//
// A page that reconnects (sleep, network, a server restart) resumes from the last id: nothing is
// missed or repeated.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="zg-live"]');
  if (!meta) return;
  // The words in the page's language: the catalogue (base.html) loads after this script, so it is
  // looked up when the words are needed; without it they stay as written.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values, named) {
    if (window.interpolate) return window.interpolate(format, values, named);
    return format.replace(/%\(\w+\)s/g, function (match) { return String(values[match.slice(2, -2)]); });
  }
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

  function words(kind) {
    if (kind === "live") return gettext("Live");
    if (kind === "reconnecting") return gettext("Reconnecting…");
    var hh = ("0" + offlineSince.getHours()).slice(-2), mm = ("0" + offlineSince.getMinutes()).slice(-2);
    return interpolate(gettext("Offline since %(time)s: changes will appear when the connection returns"),
                       {time: hh + ":" + mm}, true);
  }

  function show(kind) {
    state.dataset.state = kind;
    state.textContent = words(kind);
  }

  function connected() {
    failures = 0;
    offlineSince = null;
    if (state.dataset.state !== "live") show("live");
  }

  function lost() {
    failures += 1;
    if (offlineSince === null) offlineSince = new Date();
    show(failures < 3 ? "reconnecting" : "offline");
  }
  show("live");
  // The catalogue's script runs after this one: once the page is parsed, say it in its language.
  document.addEventListener("DOMContentLoaded", function () { show(state.dataset.state); });

  var pushing = false;  // the stream is open: parts it renders arrive by themselves

  // --- Fetching a part, never twice at once and never dropping one ----------------------------
  function refresh(el) {
    if (el.classList.contains("htmx-request")) {
      el.zgAgain = true;  // once more when this fetch is done: it may have read too early
      return;
    }
    htmx.trigger(el, "zg-refresh");
  }

  function put(el, html) {
    if (html === null) { refresh(el); return; }  // the server could not render it: fetch it
    if (el.classList.contains("htmx-request")) {
      el.zgPushed = html;  // newer than what the fetch in flight may bring: put after it
      return;
    }
    htmx.swap(el, html, {swapStyle: "innerHTML"});
    var empty = el.querySelectorAll("[data-live-slot]");
    if (!empty.length) return;
    // A new slot: fetch the viewer's own copy, whose filled slot must not be kept out by this
    // empty one (hx-preserve keeps the element already on the page with the same id).
    empty.forEach(function (slot) { slot.removeAttribute("id"); });
    refresh(el);
  }

  document.addEventListener("htmx:afterRequest", function (e) {
    var el = e.detail.elt;
    if (!el || !(el.zgAgain || el.zgPushed)) return;
    setTimeout(function () {  // after htmx has swapped and released the element
      var html = el.zgPushed;
      el.zgPushed = undefined;
      if (el.zgAgain) { el.zgAgain = false; refresh(el); }
      if (html !== undefined) put(el, html);
    }, 0);
  });

  function parts() {
    var asked = [];
    document.querySelectorAll("[data-live-part]").forEach(function (el) {
      var key = el.getAttribute("data-live-key");
      asked.push(el.getAttribute("data-live-part") + (key ? ":" + key : ""));
    });
    return asked;
  }

  // --- Keys: which parts a change reaches --------------------------------------------------------
  function covers(shown, changed) {
    return shown === changed || changed.indexOf(shown + "/") === 0 || shown.indexOf(changed + "/") === 0;
  }

  function showsAny(el, keys) {
    var shown = (el.getAttribute("data-live-keys") || "").split(/\s+/);
    return shown.some(function (s) { return s && keys.some(function (k) { return covers(s, k); }); });
  }

  var stale = new Set();  // parts to fetch with the page
  var fetching = false, again = false, failed = false, soon = null;

  function changedKeys(keys) {
    document.querySelectorAll("[data-live-keys]").forEach(function (el) {
      if (!showsAny(el, keys)) return;
      if (el.hasAttribute("data-live-part")) {
        if (pushing) { el.zgWaiting = true; return; }  // its rendered copy follows
        refresh(el);
        return;
      }
      stale.add(el.getAttribute("data-live"));
    });
    if (stale.size) { clearTimeout(soon); soon = setTimeout(fetchStale, 25); }
  }

  // The values a user typed (or is typing) in a part, to put back into its fresh copy.
  function typed(root) {
    var kept = [];
    root.querySelectorAll("input, select, textarea").forEach(function (field, index) {
      if (!field.name || field.type === "hidden" || field.type === "submit") return;
      var changed = field === document.activeElement;
      if (field.type === "checkbox" || field.type === "radio") changed = changed || field.checked !== field.defaultChecked;
      else if (field.tagName === "SELECT") changed = changed || [].some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
      else changed = changed || field.value !== field.defaultValue;
      if (!changed) return;
      var form = field.form ? (field.form.getAttribute("action") || field.form.id || "") : "";
      kept.push({form: form, name: field.name, value: field.value, checked: field.checked,
                 radio: field.type === "radio", focused: field === document.activeElement, index: index});
    });
    return kept;
  }

  function putBack(root, kept) {
    kept.forEach(function (k) {
      var fields = [].filter.call(root.querySelectorAll("input, select, textarea"), function (f) {
        var form = f.form ? (f.form.getAttribute("action") || f.form.id || "") : "";
        return f.name === k.name && form === k.form && (!k.radio || f.value === k.value);
      });
      var field = fields[0];
      if (!field) return;
      if (field.type === "checkbox" || field.type === "radio") field.checked = k.checked;
      else field.value = k.value;
      if (k.focused) field.focus();
    });
  }

  // Which breakdowns (<details>) the user opened or closed, by their summary's words.
  function folds(root) {
    var kept = {};
    root.querySelectorAll("details").forEach(function (d) {
      var summary = d.querySelector("summary");
      if (summary) kept[summary.textContent.trim()] = d.open;
    });
    return kept;
  }

  // A form that loads when its <details> opens (hx-trigger "toggle once": "+ Add", "Edit", "Roll")
  // comes unloaded in a fresh copy. One the user had open is loaded again, fresh (a new skill
  // among a weapon form's choices), and what they typed is put back once it is there.
  function loadedForms(root) {
    var loaded = {};
    root.querySelectorAll("details[hx-get][hx-target]").forEach(function (d) {
      var body = d.querySelector(d.getAttribute("hx-target").replace(/^find /, ""));
      if (d.open && body && body.querySelector("input, select, textarea")) loaded[d.getAttribute("hx-get")] = true;
    });
    return loaded;
  }

  function reloadForms(root, loaded, kept) {
    root.querySelectorAll("details[hx-get][hx-target]").forEach(function (d) {
      if (!loaded[d.getAttribute("hx-get")]) return;
      d.addEventListener("htmx:afterSwap", function back() {
        d.removeEventListener("htmx:afterSwap", back);
        putBack(d, kept);
      });
      d.open = true;  // its "toggle once" loads the form
    });
  }

  function swapPart(el, fresh) {
    var kept = typed(el), opened = folds(el), loaded = loadedForms(el);
    [].slice.call(el.attributes).forEach(function (a) { if (!fresh.hasAttribute(a.name)) el.removeAttribute(a.name); });
    [].slice.call(fresh.attributes).forEach(function (a) { el.setAttribute(a.name, a.value); });
    htmx.swap(el, fresh.innerHTML, {swapStyle: "innerHTML"});
    putBack(el, kept);
    reloadForms(el, loaded, kept);
    el.querySelectorAll("details").forEach(function (d) {
      var summary = d.querySelector("summary");
      var was = summary ? opened[summary.textContent.trim()] : undefined;
      if (was !== undefined) d.open = was;
    });
  }

  // The page itself went away (deleted, or this viewer's access changed): say so once and stop
  // asking, rather than keep showing what is no longer there as if it were.
  var isGone = false;
  function gone() {
    if (isGone) return;
    isGone = true;
    stale.clear();
    var note = document.createElement("p");
    note.className = "msg msg-error live-gone";
    note.setAttribute("role", "alert");
    note.textContent = gettext("This page is no longer there: it was deleted, or your access to it changed.") + " ";
    var link = document.createElement("a");
    link.href = location.href;
    link.textContent = gettext("Reload");
    note.appendChild(link);
    var main = document.getElementById("main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  function fetchStale() {
    if (isGone) return;
    if (fetching) { again = true; return; }
    if (!stale.size) return;
    var names = Array.from(stale);
    stale.clear();
    fetching = true;
    fetch(location.href, {credentials: "same-origin", headers: {"X-ZG-Live": names.join(" ")}})
      .then(function (response) {
        if (response.status === 403 || response.status === 404) { gone(); return null; }
        if (!response.ok) throw new Error("status " + response.status);
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (doc.title) document.title = doc.title;
        var done = [];
        names.forEach(function (name) {
          document.querySelectorAll('[data-live="' + CSS.escape(name) + '"]').forEach(function (el) {
            // A part inside another part that is swapped too comes with it.
            if (done.some(function (outer) { return outer.contains(el); })) return;
            var fresh = doc.querySelector('[data-live="' + CSS.escape(name) + '"]');
            if (fresh) swapPart(el, fresh); else el.remove();
            done.push(el);
          });
        });
      })
      .catch(function () { names.forEach(function (n) { stale.add(n); }); again = failed = true; })
      .then(function () {
        fetching = false;
        if (again) { setTimeout(fetchStale, failed ? 2000 : 0); again = failed = false; }
      });
  }

  function dispatch(event) {
    var name = "zg:" + event.kind;
    var data = event.data || {};
    var names = [name];
    Object.keys(data).forEach(function (key) {
      [].concat(data[key]).forEach(function (value) {
        if (typeof value === "number" && Math.floor(value) === value) names.push(name + ":" + key + "=" + value);
      });
    });
    names.forEach(function (n) { document.body.dispatchEvent(new CustomEvent(n, {detail: data})); });
    if (event.kind === "changed" && data.keys) changedKeys(data.keys);
  }

  function receivePart(message) {
    var part = JSON.parse(message.data);
    document.querySelectorAll("[data-live-part]").forEach(function (el) {
      var key = el.getAttribute("data-live-key");
      if (el.getAttribute("data-live-part") !== part.part) return;
      if ((key === null ? null : parseInt(key, 10)) !== part.key) return;
      el.zgWaiting = false;
      put(el, part.html);
    });
  }

  // The stream was cut between an event and its part's copy: fetch what is still awaited.
  function fetchAwaited() {
    document.querySelectorAll("[data-live-part]").forEach(function (el) {
      if (el.zgWaiting) { el.zgWaiting = false; refresh(el); }
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

  function stopPolling() {
    if (polling === null) return;
    clearInterval(polling);
    polling = null;
    document.removeEventListener("visibilitychange", poll);
  }

  // Pushed: the browser reconnects by itself, sending the last id it saw (Last-Event-ID). A ping
  // comes at least every 15 s; a stream silent for much longer, or one that never opens, is
  // given up for polling, which needs nothing from proxies. A stream given up is tried again
  // later (30 s, then less and less often: a proxy that buffers would cost 40 s each time), and
  // polling stops once a frame has come through it.
  var PATIENCE = 40000;
  var retryIn = 30000;
  function stream(retrying) {
    var crossOrigin = streamUrl.indexOf("//") >= 0 && streamUrl.indexOf(location.origin + "/") !== 0;
    var asked = parts();
    var query = "?after=" + after + (asked.length ? "&parts=" + encodeURIComponent(asked.join(",")) : "");
    var source = new EventSource(streamUrl + query, {withCredentials: crossOrigin});
    if (!retrying) pushing = true;
    var opened = false, failures = 0, watchdog = null;
    function alive() {
      clearTimeout(watchdog);
      watchdog = setTimeout(giveUp, PATIENCE);
      if (!pushing) {  // a stream tried again delivers: back from polling to pushing
        pushing = true;
        stopPolling();
        retryIn = 30000;
      }
    }
    function giveUp() {
      clearTimeout(watchdog);
      source.close();
      pushing = false;
      fetchAwaited();
      startPolling();
      setTimeout(function () { stream(true); }, retryIn);
      retryIn = Math.min(retryIn * 2, 600000);
    }
    var quiet = null;  // a stream that ended is reopened at once: only a reopen that fails is news
    source.addEventListener("open", function () {
      opened = true;
      failures = 0;
      clearTimeout(quiet);
      if (pushing) connected();  // a stream tried again counts only once a frame comes through
      clearTimeout(watchdog);
      watchdog = setTimeout(giveUp, PATIENCE);
    });
    source.addEventListener("ping", function () { connected(); alive(); });
    source.addEventListener("zg", function (message) {
      connected();
      alive();
      receive(JSON.parse(message.data));
    });
    source.addEventListener("part", receivePart);
    source.addEventListener("error", function () {
      fetchAwaited();
      failures += 1;
      if (source.readyState === EventSource.CLOSED || (!opened && failures >= 3)) {
        if (pushing) lost();
        giveUp();
      } else if (failures > 1) {
        if (pushing) lost();
      } else {
        clearTimeout(quiet);
        quiet = setTimeout(function () { if (pushing) lost(); }, 5000);
      }
    });
    clearTimeout(watchdog);
    watchdog = setTimeout(giveUp, PATIENCE);
  }

  if (streamUrl && window.EventSource) {
    stream(false);
  } else {
    startPolling();
  }
})();
