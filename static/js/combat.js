// The encounter page: tells a player at once when one of their characters acts ("Your turn"),
// with a buzz on phones that allow it. The tracker is swapped in by live.js whenever the fight
// moves; this watches it and needs no request of its own.
(function () {
  "use strict";
  var banner = document.getElementById("your-turn");
  var live = document.getElementById("encounter-live");
  if (!banner || !live) return;
  var mine = banner.getAttribute("data-mine").split(",");
  var shownFor = null;

  function check() {
    var acting = live.querySelector("li.fighter.acting[data-combatant]");
    var id = acting && acting.getAttribute("data-combatant");
    if (id && mine.indexOf(id) !== -1) {
      var name = acting.querySelector(".fighter-head strong");
      banner.querySelector("[data-your-name]").textContent = name ? name.textContent : "";
      banner.hidden = false;
      var round = live.querySelector(".tracker-head strong");  // "Round 3": a new turn buzzes again
      var turn = id + ":" + (round ? round.textContent : "");
      if (shownFor !== turn) {
        shownFor = turn;
        if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
      }
    } else {
      banner.hidden = true;
      shownFor = null;
    }
  }

  new MutationObserver(check).observe(live, { childList: true, subtree: true });
  check();
})();

// The GM's console posts a form per action and comes back to the page: it comes back where the
// GM was, not at the top (a fight is run from the middle of a long page on a phone).
(function () {
  "use strict";
  var key = "zg-scroll:" + location.pathname;
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented || !event.target.closest("main")) return;
    try {
      sessionStorage.setItem(key, JSON.stringify({ y: window.scrollY, at: Date.now() }));
    } catch (e) { /* private mode: the page opens at the top, as before */ }
  });
  try {
    var kept = JSON.parse(sessionStorage.getItem(key) || "null");
    sessionStorage.removeItem(key);
    if (kept && Date.now() - kept.at < 15000) window.scrollTo(0, kept.y);
  } catch (e) { /* nothing kept */ }
})();
