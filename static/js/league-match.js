/*
 * A team match's page (/leagues/fixtures/{id}/) follows its boards by push: one stream for all the match's
 * games (/live/games?ids=...). On any entry of one of them (a move, a ruling, the end) the page reads itself
 * again and puts the new boards, status and card in place; while the stream cannot be held, it polls with
 * back-off (LiveFeed). A native ES module, no build step: templates/leagues/fixture.html loads it.
 */
import { followList, pageRefresher } from "./common.js";

var live = document.getElementById("match-live");
if (live) {
  var ids = Array.prototype.map.call(live.querySelectorAll("[data-game-id]"), function (row) {
    return row.getAttribute("data-game-id");
  });
  if (ids.length) {
    var refresh = pageRefresher(live);
    followList("/live/games?ids=" + ids.join(","), function (event) {
      if (event.type === "entry" || event.type === "state") {
        refresh();
      }
    }, refresh);
  }
}
