// Every page: a form, or the button that sends it, may ask before it posts
// (<form data-confirm="Put the sheet back?">, <button data-confirm="End the fight?">).
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var question = (button && button.getAttribute("data-confirm")) ||
    (event.target.getAttribute && event.target.getAttribute("data-confirm"));
  if (question && !window.confirm(question)) event.preventDefault();
});

// Forms that must arrive exactly once, even from a phone on a bad connection
// (<form data-send-once>, carrying an idempotency key the server honours). They are sent in the
// background; when the network fails, the page keeps what was typed, says "not sent yet" and
// sends the very same form again once the connection is back: the key makes a copy that did
// arrive count once.
(function () {
  "use strict";
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
          note.textContent = "The server refused it (" + response.status + "); reload the page.";
        }
      })
      .catch(function () {
        form.zgSending = false;
        if (note) {
          note.hidden = false;
          note.textContent = "Not sent yet: no connection. It is sent once the connection is back.";
        }
        var again = function () {
          window.removeEventListener("online", again);
          clearTimeout(timer);
          send(form, submitter);
        };
        var timer = setTimeout(again, 5000);
        window.addEventListener("online", again);
      });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.hasAttribute || !form.hasAttribute("data-send-once")) return;
    event.preventDefault();
    send(form, event.submitter);
  });
})();

// The same promise for htmx forms (<form hx-post data-resend>, with an idempotency key): when the
// network fails, say "not sent yet", keep what was typed, and send the form again once the
// connection is back; the key makes a copy that did arrive count once.
document.addEventListener("htmx:sendError", function (event) {
  var form = event.detail && event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form[data-resend]");
  if (!form || form.zgWaiting) return;
  form.zgWaiting = true;
  var note = form.querySelector("[data-send-state]");
  if (note) {
    note.hidden = false;
    note.textContent = "Not sent yet: no connection. It is sent once the connection is back.";
  }
  var again = function () {
    window.removeEventListener("online", again);
    clearTimeout(timer);
    form.zgWaiting = false;
    if (note) note.hidden = true;
    window.htmx.trigger(form, "submit");
  };
  var timer = setTimeout(again, 5000);
  window.addEventListener("online", again);
});
