/*
 * A destructive action asks once before it is sent: a form with data-confirm="question" is submitted
 * only when the director answers OK (closing the tournament, discarding a round's preview,
 * withdrawing a player). Loaded as a module by the manage page; the Content-Security-Policy allows
 * no inline handler, so the question lives in the attribute.
 */
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form && form.getAttribute ? form.getAttribute("data-confirm") : null;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
