/*
 * An event's page follows each of its sections by push (/live/tournaments/{id}, one stream a
 * section): when a round is published, a result recorded or a move made in one of its games, the
 * page reads itself again and puts that section's new content in place (its standings and the
 * boards being played), without a reload.
 *
 * A native ES module, no build step: templates/events/detail.html loads it.
 */
import { LiveFeed, pageRefresher } from "./common.js";

document.querySelectorAll("[data-section-live]").forEach(function (section) {
  var refresh = pageRefresher(section);
  new LiveFeed("/live/tournaments/" + section.getAttribute("data-tournament-id"), function (event) {
    if (event.type === "tournament" || event.type === "entry") {
      refresh();
    }
  });
});
