/*
 * A title match's page follows its games by push (/live/games?all=1, filtered here): on an entry
 * of one of the match's games (a move, a ruling, the end), or a new game being created (the
 * match's next one, perhaps), the page reads itself again and puts the new score line in place.
 *
 * The match's games are those the page lists (data-game-ids), and while the page is being read
 * again that list may be behind: a game created meanwhile can end before the new list arrives
 * (the deciding game: no next game is created to say it). So the games of the entries that come
 * during a read are kept, and if the new list holds one of them, the page is read once more.
 *
 * A native ES module, no build step: templates/events/match.html loads it.
 */
import { LiveFeed, pageRefresher } from "./common.js";

var root = document.getElementById("match-live");
if (root) {
  var games = function () {
    return (root.getAttribute("data-game-ids") || "").split(" ");
  };
  var missed = {}; // the games of entries that came while the page was being read again
  var refresh = pageRefresher(root, function () {
    var listed = games();
    var behind = Object.keys(missed).some(function (game) {
      return listed.indexOf(game) !== -1;
    });
    missed = {};
    if (behind) {
      refresh(); // (a read is still under way here: this one comes after it)
    }
  });
  new LiveFeed("/live/games?all=1", function (event) {
    if (event.type !== "entry") {
      return;
    }
    if (games().indexOf(String(event.game)) !== -1 || (event.kind === "game_created" && event.round === null)) {
      refresh();
    } else if (refresh.busy()) {
      missed[String(event.game)] = true;
    }
  });
}
