/*
 * A tournament's page follows its tournament by push (/live/tournaments/{id}): when a round is
 * published, a result recorded or corrected, or a game of it ends, the page reads itself again
 * and puts its new content in place (the standings, the rounds, the crosstable), without a reload.
 *
 * A native ES module, no build step: templates/tournaments/detail.html loads it.
 */
import { LiveFeed } from "./common.js";

var root = document.getElementById("tournament-live");
if (root) {
  var reading = false;
  var again = false;
  var refresh = function () {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (!html) {
        return;
      }
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("tournament-live");
      if (fresh) {
        root.innerHTML = fresh.innerHTML;
      }
    }).catch(function () {}).then(function () {
      reading = false;
      if (again) {
        again = false;
        refresh();
      }
    });
  };
  new LiveFeed("/live/tournaments/" + root.getAttribute("data-tournament-id"), function (event) {
    if (event.type === "tournament" || (event.type === "entry" && event.kind === "game_end")) {
      refresh();
    }
  });
}
