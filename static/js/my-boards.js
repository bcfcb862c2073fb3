/*
 * A referee's "My boards" list (/tournaments/me/boards/) follows his games by push: one stream for all
 * of them (/live/games?ids=..., docs/api.md). On any entry of one of them (a move, a ruling, a
 * clock event, a time call, the end), or on coming back after a drop, the page reads itself again and puts the new list in place, one
 * request whatever the number of games. While the stream cannot be held, the list is read again
 * every 3 s, doubled after each read up to 12 s (LiveFeed.pollDelay).
 *
 * A native ES module, no build step: templates/tournaments/boards.html loads it.
 */
import { followList, pageRefresher } from "./common.js";

var table = document.getElementById("my-boards");
if (table) {
  var ids = Array.prototype.map.call(table.querySelectorAll("[data-game-id]"), function (row) {
    return row.getAttribute("data-game-id");
  });
  var refresh = pageRefresher(table);
  followList("/live/games?ids=" + ids.join(","), function (event) {
    if (event.type === "entry" || event.type === "state") {
      refresh();
    }
  }, refresh);
}
