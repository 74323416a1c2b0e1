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

// Stat trades before saving: each +/− shows the new sheet value, the exact 4d6 odds and the
// skill points the trades cost, at once; leaving the page with unsaved trades asks first.
(function () {
  "use strict";
  // Ways to roll each total on 4d6 (4 … 24), for the chance of rolling at or under a target.
  var counts = [1];
  for (var die = 0; die < 4; die++) {
    var next = [];
    for (var total = 0; total < counts.length + 6; total++) next.push(0);
    counts.forEach(function (ways, sum) { for (var face = 1; face <= 6; face++) next[sum + face] += ways; });
    counts = next;
  }
  function chance(target) {
    var hits = 0;
    counts.forEach(function (ways, sum) { if (sum <= target) hits += ways; });
    return hits / 1296;
  }
  function price(trade) { return trade > 0 ? 3 * trade : 2 * trade; }  // −1 gives 2 back

  function refresh(form) {
    var rows = form.querySelectorAll("[data-stat-row]");
    var points = 0, changed = false;
    rows.forEach(function (row) {
      var trade = row.querySelector("input[name^=trade_]");
      var rolled = row.querySelector("input[name^=rolled_]");
      if (!trade) return;
      var tradeNow = parseInt(trade.value || "0", 10) || 0;
      var tradeSaved = parseInt(row.dataset.trade || "0", 10) || 0;
      var rolledNow = rolled ? parseInt(rolled.value || "0", 10) || 0 : 0;
      var rolledSaved = parseInt(row.dataset.rolled || "0", 10) || rolledNow;
      var value = parseInt(row.dataset.value, 10) + (tradeNow - tradeSaved) + (rolledNow - rolledSaved);
      points += price(tradeNow) - price(tradeSaved);
      changed = changed || tradeNow !== tradeSaved || rolledNow !== rolledSaved;
      var shown = row.querySelector("[data-live-value]");
      if (shown) shown.textContent = value;
      var pct = row.querySelector("[data-live-pct]");
      var target = row.querySelector("[data-live-target]");
      if (pct && target) {
        pct.textContent = (Math.round(chance(value) * 1000) / 10) + "%";
        target.textContent = "≤ " + value;
      }
    });
    var summary = form.querySelector("[data-trade-summary]");
    form.dataset.unsaved = changed ? "1" : "";
    // The budget counts them too, as pending: what is left once they are saved.
    var pending = document.querySelector("#budget [data-budget=unsaved]");
    var remaining = document.querySelector("#budget [data-budget=remaining]");
    if (pending) {
      pending.hidden = !changed || points === 0;
      var left = remaining ? (parseInt(remaining.textContent, 10) || 0) - points : null;
      pending.textContent = points === 0 ? "" : (points > 0 ? "−" + points : "+" + (-points)) +
        " pending (unsaved trades)" + (left === null ? "" : ": " + left + " left once saved");
    }
    if (summary) {
      summary.hidden = !changed;
      summary.textContent = changed ? "Not saved yet: these trades " + (points >= 0 ? "cost " + points :
        "give back " + (-points)) + " skill points more than the saved ones. Save to keep them." : "";
    }
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest(".stats-form");
    if (form) refresh(form);
  });
  document.addEventListener("input", function (event) {
    var form = event.target.closest(".stats-form");
    if (form) refresh(form);
  });
  document.addEventListener("submit", function (event) {
    if (event.target.closest(".stats-form")) event.target.closest(".stats-form").dataset.unsaved = "";
  });
  window.addEventListener("beforeunload", function (event) {
    var form = document.querySelector(".stats-form");
    if (form && form.dataset.unsaved) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();
