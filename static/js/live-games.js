/*
 * The "Live games" page (/games/): the games being played now across tournaments, as small boards
 * that follow play, those waiting to start, and the last finished. One stream carries every game's
 * entries (/live/games?all=1, docs/api.md). A move of a board shown moves that board at once, from
 * the event (its position, plies and clocks); anything else (a game that starts or ends, a ruling,
 * a clock event, a game not on the page, a new round's games) makes the page read itself again
 * and put the new lists in place, one read at a time (pageRefresher). On the finished games' list
 * only an ending, or an entry of a game listed, does.
 *
 * Without the stream (LIVE_PATH off, or refused), the page reads itself again every 3 s (doubled
 * after each read up to 12 s while a stream is expected: LiveFeed.pollDelay).
 *
 * A native ES module, no build step: templates/games/list.html loads it.
 */
import { DraughtsBoard } from "./board.js";
import { formatClock } from "./clocks.js";
import { followList, pageRefresher } from "./common.js";

/* The clock as templates/tournaments/_clock.html writes it, from the clocks of a game state. */
function clockText(clocks) {
  if (!clocks) {
    return "No clock";
  }
  var side = function (name) {
    var part = clocks[name] || {};
    return cap(name) + " " + formatClock(Math.floor(part.remaining || 0)) + (part.running ? " ▸" : "");
  };
  return side("black") + " · " + side("white") + " (clock " + String(clocks.status || "").replace(/_/g, " ") + ")";
}

function cap(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

var root = document.getElementById("live-games");
if (root) {
  var finishedList = root.getAttribute("data-show") === "finished";
  var games = {}; // game id -> {item, seq, board}

  var mount = function () {
    games = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-game-id]"), function (item) {
      var entry = { item: item, seq: Number(item.getAttribute("data-seq")), board: null };
      var squares = item.querySelector("[data-board]");
      if (squares) {
        entry.board = new DraughtsBoard(squares, { interactive: false });
        entry.board.setFen(item.getAttribute("data-fen"));
      }
      games[item.getAttribute("data-game-id")] = entry;
    });
  };
  mount();
  var refresh = pageRefresher(root, mount);

  var showClock = function (entry, clocks) {
    var slot = entry.item.querySelector("[data-clock] .clock");
    if (slot && clocks !== undefined) {
      slot.textContent = clockText(clocks);
    }
  };

  var onEvent = function (event) {
    var entry = games[String(event.game)];
    if (event.type === "state") {
      if (entry && entry.board && event.seq === entry.seq && event.state) {
        showClock(entry, event.state.clocks);
      }
      return;
    }
    if (event.type !== "entry" || (entry && event.seq <= entry.seq)) {
      return;
    }
    var state = event.state || {};
    if (entry && entry.board && event.kind === "move" && (state.status || "in_progress") === "in_progress") {
      entry.seq = event.seq;
      entry.board.setFen(event.fen);
      entry.board.setMarks(event.move ? { last: DraughtsBoard.movePath(event.move) } : {});
      entry.item.querySelector("[data-ply]").textContent = String(event.ply);
      showClock(entry, state.clocks);
      return;
    }
    if (finishedList && !entry && event.kind !== "game_end") {
      return; // a move or a ruling of a game still in play: not this list's news
    }
    refresh();
  };

  followList("/live/games?all=1", onEvent, refresh);
}
