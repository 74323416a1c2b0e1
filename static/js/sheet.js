// Character pages: +/− steppers for stat trades, and refusals (400/409) shown in place.
(function () {
  "use strict";

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
    notice(status === 403 ? "You may not change this sheet." :
           status === 404 ? "That is no longer there; reload the page." :
           "Something went wrong (" + status + "); nothing was saved.");
  });
  document.addEventListener("htmx:sendError", function () {
    notice("The server could not be reached; nothing was saved.");
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
