/*
 * The live boards page: every game of the tournament's current round as a small board that
 * follows play through the tournament's event stream (/live/tournaments/{id}, docs/api.md).
 * Each board keeps the last seq of its game; the stream is resumed with all of them (since=),
 * so that a board never skips or repeats an entry. A new round published reloads the page.
 *
 * A native ES module, no build step: templates/tournaments/live.html loads it.
 */
import { DraughtsBoard } from "./board.js";
import { LiveFeed } from "./common.js";

var root = document.getElementById("live-boards");
if (root) {
  var boards = {};
  Array.prototype.forEach.call(root.querySelectorAll("[data-game-id]"), function (figure) {
    var board = new DraughtsBoard(figure.querySelector("[data-board]"), { interactive: false });
    board.setFen(figure.getAttribute("data-fen"));
    boards[figure.getAttribute("data-game-id")] = {
      figure: figure, board: board, seq: Number(figure.getAttribute("data-seq")),
    };
  });
  var since = Object.keys(boards).map(function (id) {
    return id + "." + boards[id].seq;
  }).join(",");

  var onEvent = function (event) {
    if (event.type === "tournament") {
      if (event.kind === "round_published") {
        window.location.reload();
      }
      return;
    }
    var entry = boards[String(event.game)];
    if (!entry || (event.type !== "entry" && event.type !== "game") || event.seq < entry.seq ||
        (event.type === "entry" && event.seq === entry.seq)) {
      return;
    }
    entry.seq = event.seq;
    entry.board.setFen(event.fen);
    entry.board.setMarks(event.move ? { last: DraughtsBoard.movePath(event.move) } : {});
    entry.figure.querySelector("[data-ply]").textContent = event.ply + " plies";
    var state = event.type === "game" ? event : event.state;
    if (state && state.status) {
      entry.figure.querySelector("[data-status]").textContent =
        state.status === "finished" ? state.result : state.status.replace("_", " ");
    }
  };
  new LiveFeed("/live/tournaments/" + root.getAttribute("data-tournament-id") + "?since=" + since, onEvent);
}
