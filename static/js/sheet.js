// Character pages: +/− steppers for stat trades, and refusals (400/409) shown in place.
(function () {
  "use strict";
  // The words in the page's language: the catalogue (base.html) loads after this script, so it is
  // looked up when the words are needed; without it they stay as written.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values, named) {
    if (window.interpolate) return window.interpolate(format, values, named);
    return format.replace(/%\(\w+\)s/g, function (match) { return String(values[match.slice(2, -2)]); });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var input = button.parentElement.querySelector("input");
    if (!input || input.disabled || input.readOnly) return;
    input.value = (parseInt(input.value || "0", 10) || 0) + parseInt(button.dataset.step, 10);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A refused write comes back as 400 or 409 with the form, the user's input and the message:
  // swap it in like a success. Other errors (403, 404, 500) get a notice instead.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function notice(text) {
    var box = document.getElementById("htmx-notice");
    if (!box) {
      box = document.createElement("p");
      box.id = "htmx-notice";
      box.className = "msg msg-error notice";
      box.setAttribute("role", "alert");
      document.body.appendChild(box);
    }
    box.textContent = text;
    clearTimeout(box._timer);
    box._timer = setTimeout(function () { box.remove(); }, 6000);
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 409) return;
    notice(status === 403 ? gettext("You may not change this sheet.") :
           status === 404 ? gettext("That is no longer there; reload the page.") :
           interpolate(gettext("Something went wrong (%(status)s); nothing was saved."), {status: status}, true));
  });
  document.addEventListener("htmx:sendError", function () {
    notice(gettext("The server could not be reached; nothing was saved."));
  });
})();

// Stat trades before saving: the server renders the stats section and the budget as they would
// be saved on every change (the builder's preview, characters/views/sheet.py: stats_preview), so
// no rule is copied here. Leaving the page with a preview not saved asks first.
(function () {
  "use strict";
  window.addEventListener("beforeunload", function (event) {
    if (document.querySelector(".stats-form [data-unsaved]")) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();
