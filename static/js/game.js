/*
 * The public game page: a read-only board and the moves to step through (buttons, the move
 * list and the arrow keys). The position after each ply is moves[i].fen_after of the state.
 * The page follows the game while it is played, with its clocks (clocks.js), by push (LiveFeed in
 * common.js), polling only when the stream cannot be held.
 *
 * A native ES module, no build step: templates/games/detail.html loads it.
 */
import { DraughtsBoard } from "./board.js";
import { DraughtsClocks } from "./clocks.js";
import { LiveFeed, Poller, announce, entryWords, followState, gameNumbering, gameUrl, getJson, moveNumber, moveWords, readJson, resultWords } from "./common.js";

function followGame(root) {
  var gameId = root.getAttribute("data-game-id");
  var startFen = root.getAttribute("data-start-fen");
  var board = new DraughtsBoard(document.getElementById("board"), { interactive: false });
  document.getElementById("flip-slot").appendChild(DraughtsBoard.flipButton([board], show));
  var moves = [];
  var index = 0; // plies shown: 0 is the start position

  var terminations = readJson("terminations") || {};
  var logKinds = readJson("log-kinds") || {};
  var lastPly = null;
  var lastStatus = null;
  var POLL_MS = 3000; // without a running clock
  var CLOCK_POLL_MS = 500; // while a clock runs
  var clockSection = document.getElementById("clocks");
  var clocks = clockSection ? new DraughtsClocks(clockSection) : null;

  function setText(testid, text) {
    var element = document.querySelector('[data-testid="' + testid + '"]');
    if (element) {
      element.textContent = text;
    }
  }

  /* Shows a new state; a viewer on the last ply follows the game as it goes on. With told, the new
   * moves were said already (from the log, in order with the rulings: sayLogSince). */
  function setState(state, answer, told) {
    if (clocks) {
      clocks.update(state, answer);
    }
    var following = index === moves.length;
    var shown = moves.length;
    moves = state.moves || [];
    if (lastPly !== null && !told) {
      moves.slice(shown).slice(-3).forEach(function (move) {
        announce(moveWords(move)); // a screen reader hears each new move (the last three after a gap)
      });
    }
    startFen = state.start_fen || startFen;
    if (following || index > moves.length) {
      index = moves.length;
    }
    if (lastStatus !== null && state.status !== lastStatus && state.status === "finished") {
      var termination = terminations[state.termination] || state.termination || "";
      setText("result", resultWords(state.result) + " · " + termination);
      setText("status", "Finished");
      setText("result-words", resultWords(state.result));
      setText("termination", termination);
    }
    lastPly = state.ply;
    lastStatus = state.status;
    if (state.log_length !== undefined && (lastSeq === null || state.log_length > lastSeq)) {
      lastSeq = state.log_length;
    }
    startLive(state);
    renderList();
    show();
  }

  /*
   * Says what the log holds after seq since and the page has not said yet, in the log's order: each
   * move as the push says it, each other entry (a ruling, a clock event, the end) by its kind.
   * Answers a promise of whether the log was read.
   */
  function sayLogSince(since) {
    return getJson(gameUrl(gameId) + "log/").then(function (answer) {
      if (!answer.ok || !Array.isArray(answer.data)) {
        return false;
      }
      var from = Math.max(since, lastSeq === null ? since : lastSeq); // what a push said meanwhile is said
      answer.data.forEach(function (entry) {
        if (entry.seq <= from) {
          return;
        }
        if (entry.kind === "move") {
          announce(moveWords({ ply: entry.ply, side: entry.side, move: (entry.data || {}).move || "" }));
        } else if (entry.kind !== "game_created") {
          announce(entryWords(entry, logKinds));
        }
        lastSeq = Math.max(lastSeq === null ? 0 : lastSeq, entry.seq);
      });
      return true;
    }).catch(function () {
      return false;
    });
  }

  /*
   * Follows the game: every 3 s, every 500 ms while a clock runs (and just after its deadline). When
   * the log grew by more entries than the moves the state adds (a ruling, a clock event, the end), the
   * new entries are read and said, as the push would have said them.
   */
  function poll() {
    if (lastStatus === "finished" || document.hidden) {
      return null;
    }
    return getJson(gameUrl(gameId))
      .then(function (answer) {
        var state = answer.ok ? answer.data : null;
        if (!state || behind(state)) {
          return null; // older than what a push showed meanwhile
        }
        var since = lastSeq;
        var grew = since !== null && lastPly !== null && state.log_length > since;
        var beyondMoves = grew && state.log_length - since > Math.max(0, state.ply - lastPly);
        return (beyondMoves ? sayLogSince(since) : Promise.resolve(false)).then(function (told) {
          if (state.ply !== lastPly || state.status !== lastStatus) {
            setState(state, answer, told);
          } else if (clocks) {
            clocks.update(state, answer);
          }
          if (state.log_length !== undefined && (lastSeq === null || state.log_length > lastSeq)) {
            lastSeq = state.log_length;
          }
        });
      })
      .catch(function () {});
  }
  var live = null; // the game's event stream (made once the first state is shown)
  var poller = new Poller(poll, function () {
    var normal = clocks ? clocks.pollDelay(POLL_MS, CLOCK_POLL_MS) : POLL_MS;
    return live ? live.pollDelay(normal) : normal;
  });

  /*
   * Follows the game by push (config/live.py): a move entry that comes next in the log (seq) is
   * shown at once from the event; any other entry (a ruling, a clock event, the end) or a gap
   * makes the page read the whole state once. The stream resumes after a drop from the last seq.
   */
  var lastSeq = null;
  var reading = false;
  var again = false;
  var stale = 0; // answers in a row older than the page
  function behind(state) {
    return Boolean(state) && state.log_length !== undefined && lastSeq !== null && state.log_length < lastSeq;
  }
  /* Reads the whole state once. A read asked for while one is under way is folded into one more read
   * after it; an answer older than what the page shows already (a read that passed a move shown
   * from the push meanwhile) is dropped and the state read again: the board never steps back. */
  function readState() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    getJson(gameUrl(gameId)).then(function (answer) {
      var state = answer.ok ? answer.data : null;
      if (behind(state)) {
        stale += 1;
        if (stale <= 20) {
          window.setTimeout(readState, 250);
        }
      } else if (state) {
        stale = 0;
        setState(state, answer);
      }
    }).catch(function () {}).then(function () {
      reading = false;
      if (again) {
        again = false;
        readState();
      }
    });
  }
  function onLive(event) {
    if (event.type === "state" && clocks && event.state && event.seq === lastSeq) {
      clocks.update(Object.assign({}, clocks.state || {}, event.state), null);
      return;
    }
    if (event.type !== "entry" || event.game !== Number(gameId) || lastSeq === null || event.seq <= lastSeq) {
      return;
    }
    var next = event.seq === lastSeq + 1;
    lastSeq = event.seq;
    if (event.kind !== "move" && event.kind !== "game_created") {
      announce(entryWords(event, logKinds)); // a ruling, a clock event, the end
    }
    if (next && event.kind === "move" && event.move && event.ply === moves.length + 1) {
      var state = event.state || {};
      setState(Object.assign({}, (clocks && clocks.state) || {}, {
        moves: moves.concat([{ ply: event.ply, side: event.side, move: event.move, fen_after: event.fen,
          recorded_at: event.at }]),
        start_fen: startFen, ply: event.ply, status: state.status || lastStatus, result: state.result,
        termination: state.termination, clocks: state.clocks !== undefined ? state.clocks : clocks && clocks.clocks(),
        log_length: event.seq,
      }), null);
      if (event.state === undefined && clocks && clocks.clocks()) {
        readState(); // replayed from the log: no clocks in it
      }
      return;
    }
    readState();
  }
  function startLive(state) {
    if (live || !state || state.log_length === undefined) {
      return;
    }
    lastSeq = state.log_length;
    live = new LiveFeed("/live/games/" + gameId + "?since=" + lastSeq, onLive);
  }

  function renderList() {
    var list = document.getElementById("move-list");
    list.innerHTML = "";
    var item = null;
    var opening = gameNumbering().opening;
    opening.forEach(function (text, i) {
      // The ballot's moves, written as the game's first (Black's on odd plies); the board starts after them.
      if (i % 2 === 0) {
        item = document.createElement("li");
        var label = document.createElement("span");
        label.className = "muted";
        label.textContent = (i / 2 + 1) + ". ";
        item.appendChild(label);
        list.appendChild(item);
      }
      var span = document.createElement("span");
      span.className = "opening-move";
      span.textContent = text + " ";
      item.appendChild(span);
      if (i === opening.length - 1) {
        var note = document.createElement("span");
        note.className = "muted";
        note.textContent = "(ballot) ";
        item.appendChild(note);
      }
    });
    moves.forEach(function (move, i) {
      var number = moveNumber(move.ply);
      if (move.side === "black" || !item) {
        item = document.createElement("li");
        var label = document.createElement("span");
        label.className = "muted";
        label.textContent = number + ". " + (move.side === "white" ? "… " : "");
        item.appendChild(label);
        list.appendChild(item);
      }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "ply";
      button.textContent = move.move;
      button.setAttribute("data-testid", "ply-" + move.ply);
      button.setAttribute("aria-label", "Show the position after " + number + (move.side === "white" ? "… " : ". ") + move.move);
      button.addEventListener("click", function () {
        go(i + 1);
      });
      item.appendChild(button);
    });
    if (!moves.length) {
      var empty = document.createElement("li");
      empty.className = "muted";
      empty.textContent = "No moves.";
      list.appendChild(empty);
    }
  }

  function show() {
    var fen = index === 0 ? startFen : moves[index - 1].fen_after;
    board.setFen(fen);
    var label = document.getElementById("position-label");
    if (index === 0) {
      board.setMarks({});
      var opening = gameNumbering().opening;
      label.textContent = (opening.length ? "Start position, after the ballot " + opening.join(" ") : "Start position") +
        " (" + moves.length + " plies in the game)";
    } else {
      var move = moves[index - 1];
      var number = moveNumber(move.ply);
      board.setMarks({ last: DraughtsBoard.movePath(move.move) });
      label.textContent = "After " + number + (move.side === "white" ? "… " : ". ") + move.move +
        " (ply " + index + " of " + moves.length + ")";
    }
    Array.prototype.forEach.call(document.querySelectorAll("#move-list button.ply"), function (button, i) {
      button.classList.toggle("current", i === index - 1);
      if (i === index - 1) {
        button.setAttribute("aria-current", "step");
      } else {
        button.removeAttribute("aria-current");
      }
    });
  }

  function go(target) {
    index = Math.max(0, Math.min(moves.length, target));
    show();
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-step]"), function (button) {
    button.addEventListener("click", function () {
      var step = button.getAttribute("data-step");
      go(step === "first" ? 0 : step === "prev" ? index - 1 : step === "next" ? index + 1 : moves.length);
    });
  });

  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      return;
    }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in keys) {
      go(index + keys[event.key]);
      event.preventDefault();
    } else if (event.key === "Home") {
      go(0);
      event.preventDefault();
    } else if (event.key === "End") {
      go(moves.length);
      event.preventDefault();
    }
  });

  var initial = readJson("initial-state");
  followState(poller, initial && initial.moves ? initial : null, setState, function () {
    board.setFen(startFen);
    return getJson(gameUrl(gameId)).then(function (answer) {
      if (answer.ok && answer.data) {
        setState(answer.data, answer);
      }
    });
  });
}

var root = document.getElementById("game-page");
if (root) {
  followGame(root);
}
