/*
 * Moves: the board with click entry (the legal moves marked, narrowed by an over-the-angle
 * constraint), the typed entry, recording a move through the API (by way of the outbox, which
 * keeps it in the browser until the server has it: outbox.js), and the list of moves.
 *
 * While moves wait in the outbox the board shows them applied to the server's position, and the
 * legal moves are not known (the rules are the server's): a click on a piece of the side to move
 * and then on a square one row away queues that step; on a square two rows away, a jump, and
 * the console waits for the next landing or "Stop here". The server checks each move on arrival.
 */
import { DraughtsBoard } from "../board.js";
import { cap, moveNumber } from "../common.js";
import { enqueue, outbox, pending, provisional, setupOutbox } from "./outbox.js";
import { $, clearAlert, el, showAlert, showNotice } from "./page.js";
import { openRuling } from "./rulings.js";
import { desk, loadState, setState } from "./state.js";

var board = null;
var lastTyped = null; // the move last typed (put back in the field if refused at once)
var drawn = null; // the position drawn while moves wait: {fen, drawn, stuck}

/* Draws the board and wires the click and typed entries. */
export function setupMoves() {
  board = new DraughtsBoard($("board"), { interactive: true, onSquareClick: squareClicked });
  $("flip-slot").appendChild(DraughtsBoard.flipButton([board], renderBoard));
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !$("ruling-dialog").open) {
      cancelSelection();
    }
  });
  document.addEventListener("click", function (event) {
    if (!desk.path.length) {
      return;
    }
    if (!event.target.closest || !event.target.closest("#board, #selection")) {
      cancelSelection();
    }
  });
  $("cancel-selection").addEventListener("click", cancelSelection);
  setupOutbox(function () {
    if (desk.state) {
      renderBoard();
    }
  }, refusedAtOnce, recorded);

  $("move-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var text = $("move-input").value.trim();
    if (text) {
      lastTyped = text;
      submitMove(text);
    }
  });
}

/* ---- board and click entry ---- */

/* The legal moves as paths, narrowed by an over-the-angle constraint on the side to move (Law 20). */
function legalPaths() {
  var moves = ((desk.state && desk.state.legal_moves) || []).map(function (move) {
    return { pdn: move, path: DraughtsBoard.movePath(move) };
  });
  (desk.state && desk.state.constraints || []).forEach(function (constraint) {
    if (constraint.kind === "over_the_angle" && constraint.side === desk.state.side_to_move) {
      var narrowed = moves.filter(function (move) {
        return move.path[0] === constraint.square && move.path[1] === constraint.toward;
      });
      if (narrowed.length) {
        moves = narrowed;
      }
    }
  });
  return moves;
}

function startsWith(full, prefix) {
  if (prefix.length > full.length) {
    return false;
  }
  for (var i = 0; i < prefix.length; i += 1) {
    if (full[i] !== prefix[i]) {
      return false;
    }
  }
  return true;
}

function lastMoveSquares() {
  var moves = (desk.state && desk.state.moves) || [];
  if (!moves.length) {
    return [];
  }
  return DraughtsBoard.movePath(moves[moves.length - 1].move);
}

export function renderBoard() {
  if (!desk.state) {
    return;
  }
  if (pending()) {
    renderProvisional();
    return;
  }
  drawn = null;
  board.setFen(desk.state.fen);
  var moves = legalPaths();
  var starts = [];
  var landings = [];
  moves.forEach(function (move) {
    if (!desk.path.length) {
      if (starts.indexOf(move.path[0]) < 0) {
        starts.push(move.path[0]);
      }
    } else if (startsWith(move.path, desk.path) && move.path.length > desk.path.length) {
      landings.push(move.path[desk.path.length]);
    }
  });
  board.setMarks({ starts: starts, landings: landings, path: desk.path, last: lastMoveSquares() });
  var selection = $("selection");
  if (desk.path.length) {
    selection.textContent = "Selected: " + desk.path.join(" → ") +
      (landings.length ? " · next landing: " + landings.join(", ") : "") + " (Escape cancels)";
  } else if (desk.state.status === "finished") {
    selection.textContent = "The game is over.";
  } else {
    selection.textContent = "Click a piece of " + cap(desk.state.side_to_move) + ", then its landing square(s).";
  }
  var legal = moves.map(function (move) {
    return move.pdn;
  }).join(", ");
  $("legal-moves").textContent = desk.state.status === "finished" ? "" : "Legal moves: " + (legal || "none") +
    (moves.length < (desk.state.legal_moves || []).length ? " (narrowed by the constraint below)" : "");
}

/* The board with the moves waiting in the outbox drawn on it (no legal moves: the server's rules decide). */
function renderProvisional() {
  drawn = provisional(desk.state.fen);
  board.setFen(drawn.fen);
  board.setMarks({ starts: [], landings: [], path: desk.path, last: [] });
  var side = board.position.side || desk.state.side_to_move;
  var selection = $("selection");
  if (drawn.stuck) {
    selection.textContent = "The board shows the position before " + drawn.stuck.move +
      ": a capture is drawn when all its landing squares are written (or once the server has it).";
  } else if (desk.path.length) {
    selection.textContent = "Selected: " + desk.path.join(" → ") + " (Escape cancels)";
  } else {
    selection.textContent = "The board shows the moves waiting to send. Click a piece of " + cap(side) +
      ", then its landing square(s); the server checks the move when it arrives.";
  }
  $("legal-moves").textContent = "Legal moves: known once the moves waiting are recorded.";
}

/* Click entry on the drawn position while moves wait: a step queues at once, a jump waits for more. */
function provisionalClick(square) {
  if (drawn.stuck) {
    return;
  }
  var side = board.position.side;
  if (!desk.path.length || (desk.path.length === 1 && pieceColorAt(square) === side)) {
    desk.path = pieceColorAt(square) === side && desk.path[0] !== square ? [square] : [];
    renderBoard();
    return;
  }
  var last = desk.path[desk.path.length - 1];
  var rows = Math.abs(DraughtsBoard.squareRow(square) - DraughtsBoard.squareRow(last));
  var columns = Math.abs(DraughtsBoard.squareColumn(square) - DraughtsBoard.squareColumn(last));
  if (pieceColorAt(square) || rows !== columns || (rows === 1 && desk.path.length > 1) || (rows !== 1 && rows !== 2)) {
    desk.path = [];
    renderBoard();
    return;
  }
  desk.path = desk.path.concat([square]);
  if (rows === 1) {
    submitMove(DraughtsBoard.pathToPdn(desk.path));
    return;
  }
  renderBoard();
  offerStop(desk.path.join("x"));
}

function pieceColorAt(square) {
  var piece = board.position.pieces[square];
  return piece ? piece.color : null;
}

function squareClicked(square) {
  if (!desk.state || desk.state.status === "finished" || desk.busy) {
    return;
  }
  if (pending()) {
    provisionalClick(square);
    return;
  }
  var moves = legalPaths();
  if (!desk.path.length) {
    if (pieceColorAt(square) === desk.state.side_to_move) {
      desk.path = [square];
      clearAlert();
    }
    renderBoard();
    return;
  }
  if (square === desk.path[desk.path.length - 1] && desk.path.length === 1) {
    desk.path = []; // clicking the selected piece again cancels
    renderBoard();
    return;
  }
  if (pieceColorAt(square) === desk.state.side_to_move && desk.path.length === 1) {
    desk.path = [square]; // another piece of the side to move: start again from it
    renderBoard();
    return;
  }
  var candidate = desk.path.concat([square]);
  var exact = null;
  var longer = false;
  moves.forEach(function (move) {
    if (startsWith(move.path, candidate)) {
      if (move.path.length === candidate.length) {
        exact = move.pdn;
      } else {
        longer = true;
      }
    }
  });
  if (exact && !longer) {
    desk.path = candidate;
    renderBoard();
    submitMove(exact);
    return;
  }
  if (longer) {
    desk.path = candidate; // a prefix of a longer move: wait for the next landing
    renderBoard();
    if (exact) {
      offerStop(exact);
    }
    return;
  }
  if (pieceColorAt(square)) {
    desk.path = []; // a piece cannot land on an occupied square: cancel
    renderBoard();
    return;
  }
  // Not a legal path: submit what was played so the server gives the reason.
  var attempted = DraughtsBoard.pathToPdn(candidate);
  desk.path = [];
  renderBoard();
  submitMove(attempted);
}

function offerStop(pdn) {
  var button = el("button", { type: "button", "data-testid": "stop-here" }, "Stop here: record " + pdn);
  button.addEventListener("click", function () {
    submitMove(pdn);
  });
  var box = el("span");
  box.appendChild(document.createTextNode(" "));
  box.appendChild(button);
  $("selection").appendChild(box);
}

function cancelSelection() {
  if (desk.path.length) {
    desk.path = [];
    renderBoard();
  }
}

/* ---- recording a move ---- */

/*
 * Sends a move (PDN) through the outbox: at once when nothing waits and the server is reachable,
 * else behind the moves waiting. A refusal of a move sent at once is explained in the alert, with
 * the legal moves (refusedAtOnce); a refusal on arrival of a queued one is kept in the outbox.
 */
function submitMove(move) {
  if (!desk.state) {
    return;
  }
  clearAlert();
  desk.path = [];
  $("move-input").value = "";
  enqueue(move);
  if (!outbox.online) {
    showNotice("Kept in this browser: " + move + " is waiting to send.");
  }
}

/* A move recorded by the server. */
function recorded(item) {
  showNotice("Recorded " + item.move + (item.queued ? " (ply " + item.ply + ", sent when the connection returned)" : "") + ".");
}

/* A move sent at once and refused: the reason, as the console always said it. */
function refusedAtOnce(move, answer, error) {
  if (move === lastTyped && !$("move-input").value) {
    $("move-input").value = move;
  }
  if (answer.status === 409) {
    showAlert(error.message); // the server's words; the code stays in the API
    loadState();
    return;
  }
  if (answer.status === 422) {
    showIllegal(move, error);
    renderBoard();
    return;
  }
  showAlert(error.message);
  renderBoard();
}

function showIllegal(move, error) {
  var extra = el("div");
  var legal = error.details.legal_moves || (desk.state && desk.state.legal_moves) || [];
  var candidates = error.details.candidates;
  extra.appendChild(el("p", { "data-testid": "refused-move" }, "Refused: " + (error.details.move || move) +
    (error.code === "ambiguous_move" ? ", which could be more than one move." : ", not a legal move here.")));
  if (candidates && candidates.length) {
    extra.appendChild(el("p", {}, "It could be: " + candidates.join(", ")));
  }
  extra.appendChild(el("p", { "data-testid": "alert-legal-moves" }, "Legal moves: " + (legal.join(", ") || "none")));
  if (error.code === "illegal_move" && desk.state && desk.state.status !== "finished") {
    var button = el("button", { type: "button", "data-testid": "record-false-move" },
      "Record " + move + " as a false move (Law 21)…");
    button.addEventListener("click", function () {
      openRuling("false_move", { move: move, side: desk.state.side_to_move });
    });
    extra.appendChild(button);
  }
  showAlert(error.message, extra);
}

/* ---- the list of moves and the typed entry ---- */

export function renderMoves() {
  var list = $("move-list");
  list.innerHTML = "";
  var moves = desk.state.moves || [];
  var item = null;
  moves.forEach(function (move, index) {
    var number = moveNumber(move.ply);
    if (move.side === "black" || !item) {
      item = el("li");
      item.appendChild(el("span", { class: "muted" }, number + ". "));
      if (move.side === "white") {
        item.appendChild(el("span", {}, "… "));
      }
      list.appendChild(item);
    }
    var span = el("span", { "data-testid": "move-" + move.ply, title: (move.recorded_by || "") + " " + (move.recorded_at || "") }, move.move);
    if (index === moves.length - 1) {
      span.className = "current";
    }
    item.appendChild(span);
    item.appendChild(document.createTextNode(" "));
  });
  if (!moves.length) {
    list.appendChild(el("li", { class: "muted" }, "No moves yet."));
  }
}

/* The typed entry is open while the game goes on and this desk may write. */
export function renderEntry() {
  var writable = desk.state.can_write !== false && desk.state.status !== "finished";
  $("move-input").disabled = !writable;
  $("move-form").querySelector("button").disabled = !writable;
}
