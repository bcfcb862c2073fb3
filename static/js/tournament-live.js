/*
 * A tournament's page follows its tournament by push (/live/tournaments/{id}): when a round is
 * published, a result recorded or corrected, or a game of it ends, the page reads itself again
 * and puts its new content in place (the standings, the rounds, the crosstable), without a reload.
 *
 * A native ES module, no build step: templates/tournaments/detail.html loads it.
 */
import { LiveFeed, pageRefresher } from "./common.js";

var root = document.getElementById("tournament-live");
if (root) {
  var refresh = pageRefresher(root);
  new LiveFeed("/live/tournaments/" + root.getAttribute("data-tournament-id"), function (event) {
    if (event.type === "tournament" || (event.type === "entry" && event.kind === "game_end")) {
      refresh();
    }
  });
}
