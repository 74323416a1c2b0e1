// Every page: a form, or the button that sends it, may ask before it posts
// (<form data-confirm="Put the sheet back?">, <button data-confirm="End the fight?">).
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var question = (button && button.getAttribute("data-confirm")) ||
    (event.target.getAttribute && event.target.getAttribute("data-confirm"));
  if (question && !window.confirm(question)) event.preventDefault();
});
