/*
 * A title match's page follows its games by push (/live/games?all=1, filtered here): on an entry
 * of one of the match's games (a move, a ruling, the end), or a new game being created (the
 * match's next one, perhaps), the page reads itself again and puts the new score line in place.
 *
 * A native ES module, no build step: templates/events/match.html loads it.
 */
import { LiveFeed, pageRefresher } from "./common.js";

var root = document.getElementById("match-live");
if (root) {
  var refresh = pageRefresher(root);
  new LiveFeed("/live/games?all=1", function (event) {
    if (event.type !== "entry") {
      return;
    }
    var ours = (root.getAttribute("data-game-ids") || "").split(" ").indexOf(String(event.game)) !== -1;
    if (ours || (event.kind === "game_created" && event.round === null)) {
      refresh();
    }
  });
}
