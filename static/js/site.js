// Every page: a form, or the button that sends it, may ask before it posts
// (<form data-confirm="Put the sheet back?">, <button data-confirm="End the fight?">).
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var question = (button && button.getAttribute("data-confirm")) ||
    (event.target.getAttribute && event.target.getAttribute("data-confirm"));
  if (question && !window.confirm(question)) event.preventDefault();
});

// Forms that must arrive exactly once, even from a phone on a bad connection, carrying an
// idempotency key the server honours: <form data-send-once> is sent in the background (and the
// page reloads), <form hx-post data-resend> by htmx. When the network fails, the page keeps what
// was typed, says "not sent yet" and sends the very same form again once the connection is back
// (or every 5 s): the key makes a copy that did arrive count once.
(function () {
  "use strict";
  // The words in the page's language (the catalogue base.html loads); as written without it.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values, named) {
    if (window.interpolate) return window.interpolate(format, values, named);
    return format.replace(/%\(\w+\)s/g, function (match) { return String(values[match.slice(2, -2)]); });
  }

  function notSentYet(form, resend) {
    var note = form.querySelector("[data-send-state]");
    if (note) {
      note.hidden = false;
      note.textContent = gettext("Not sent yet: no connection. It is sent once the connection is back.");
    }
    var again = function () {
      window.removeEventListener("online", again);
      clearTimeout(timer);
      if (note) note.hidden = true;
      resend();
    };
    var timer = setTimeout(again, 5000);
    window.addEventListener("online", again);
  }

  function send(form, submitter) {
    if (form.zgSending) return;
    form.zgSending = true;
    var body = new FormData(form);
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    var note = form.querySelector("[data-send-state]");
    // getAttribute: a field named "action" (the console's forms have one) hides form.action.
    fetch(form.getAttribute("action") || window.location.pathname, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
      .then(function (response) {
        form.zgSending = false;
        if (response.type === "opaqueredirect" || response.ok) {
          window.location.assign(window.location.pathname);  // the page the form came back to
        } else if (note) {
          note.hidden = false;
          note.textContent = interpolate(gettext("The server refused it (%(status)s); reload the page."),
                                         {status: response.status}, true);
        }
      })
      .catch(function () {
        form.zgSending = false;
        notSentYet(form, function () { send(form, submitter); });
      });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.hasAttribute || !form.hasAttribute("data-send-once")) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.closest && elt.closest("form[data-resend]");
    if (!form || form.zgWaiting) return;
    form.zgWaiting = true;
    notSentYet(form, function () {
      form.zgWaiting = false;
      window.htmx.trigger(form, "submit");
    });
  });
})();
