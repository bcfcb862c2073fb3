/*
 * The outbox: the moves this console has entered and the server has not yet recorded, kept in
 * the browser (localStorage, one list a game) so that a dropped connection, or a reload while it
 * is down, loses nothing. Each move is kept with the ply it must be, and is sent with it
 * (POST moves/ {"move", "ply"}): a move the server already recorded (its answer lost on the way
 * back) comes back as 409 ply_conflict, and the console then finds it in the game's moves at
 * that ply and counts it as sent, so nothing is recorded twice.
 *
 * A move's status: "sending" (on its way), "waiting" (the server could not be reached: sent
 * again, in order, when it can), "refused" (the server refused it on arrival: an illegal move,
 * a ply already taken, a game over; kept, with the reason, until the referee dismisses it),
 * "held" (entered after a refused move: not sent until the referee says so, since it followed a
 * move that was not recorded).
 *
 * The board shows the moves not yet recorded applied to the last position the server sent,
 * drawn here from the squares of each move (the jumped pieces are the ones between two landing
 * squares; a man reaching the far row is crowned): the rules are not checked in the browser,
 * the server checks each move when it arrives. A capture typed in the short form (15x31 for
 * 15x24x31) cannot be drawn without the rules: the board stops before it and says so.
 */
import { DraughtsBoard } from "../board.js";
import { errorOf, request } from "../common.js";
import { $, api, el, gameId, showAlert } from "./page.js";
import { desk, loadState, setState } from "./state.js";

const KEY = "draughts-console-outbox:" + gameId;
const RETRY_MS = 2000; // between two tries while the server cannot be reached
const SEND_TIMEOUT_MS = 8000; // a move's request that hangs longer is given up, and sent again later

/* The moves not yet recorded, oldest first: {ply, move, status, reason, queued, at}. */
export const outbox = { items: [], online: true, sending: false };

var retryTimer = null;
var onChange = function () {};
var onDirectRefusal = function () {};
var onRecorded = function () {};

function save() {
  try {
    if (outbox.items.length) {
      window.localStorage.setItem(KEY, JSON.stringify(outbox.items));
    } else {
      window.localStorage.removeItem(KEY);
    }
  } catch (error) {
    /* storage full or refused: the moves are still in the page */
  }
}

function changed() {
  save();
  renderOutbox();
  onChange();
}

/*
 * Reads the moves kept by an earlier visit (a move that was on its way when the page went is
 * waiting again: the server decides whether it arrived). changeListener() is called whenever
 * the outbox changes; refusedNow(move, answer) when a move sent at once (never queued) is refused.
 */
export function setupOutbox(changeListener, refusedNow, recordedNow) {
  onChange = changeListener;
  onDirectRefusal = refusedNow;
  onRecorded = recordedNow;
  try {
    var kept = JSON.parse(window.localStorage.getItem(KEY) || "[]");
    outbox.items = Array.isArray(kept) ? kept.filter(function (item) {
      return item && typeof item.ply === "number" && typeof item.move === "string";
    }) : [];
  } catch (error) {
    outbox.items = [];
  }
  outbox.items.forEach(function (item) {
    if (item.status === "sending") {
      item.status = "waiting";
    }
    item.queued = true;
  });
  outbox.online = navigator.onLine !== false;
  window.addEventListener("online", function () {
    outbox.online = true;
    renderOutbox();
    flush();
  });
  window.addEventListener("offline", function () {
    outbox.online = false;
    renderOutbox();
  });
  $("outbox-send").addEventListener("click", sendHeld);
  $("outbox-discard").addEventListener("click", discardUnsent);
  renderOutbox();
}

/*
 * Hears whether the server answered a read (a poll): when it did, what waits is sent (and the
 * answer to that says whether moves get through); when it did not, the console is offline.
 */
export function reachable(yes) {
  var was = outbox.online;
  if (!yes || !outbox.items.some(function (item) { return item.status === "waiting"; })) {
    outbox.online = yes;
  }
  if (was !== outbox.online) {
    renderOutbox();
  }
  if (yes) {
    flush();
  }
}

/* Whether moves are waiting, so that a new one must go behind them. */
export function pending() {
  return outbox.items.length > 0;
}

/* The moves the board should show on top of the server's position (not refused). */
export function unrecorded() {
  return outbox.items.filter(function (item) {
    return item.status !== "refused";
  });
}

function stopped() {
  return outbox.items.some(function (item) {
    return item.status === "refused" || item.status === "held";
  });
}

/* Adds a move behind those waiting (with the ply after theirs) and sends what can be sent. */
export function enqueue(move) {
  var last = outbox.items.length ? outbox.items[outbox.items.length - 1].ply : 0;
  var ply = Math.max(desk.state ? desk.state.ply : 0, last) + 1;
  var queued = outbox.items.length > 0 || !outbox.online;
  outbox.items.push({ ply: ply, move: move, status: stopped() ? "held" : "waiting", queued: queued, at: new Date().toISOString() });
  changed();
  flush();
}

/* Whether a move the server recorded is this one: the same squares from and to, the same kind. */
function sameMove(recorded, entered) {
  var a = DraughtsBoard.movePath(recorded);
  var b = DraughtsBoard.movePath(entered);
  return a.length > 1 && b.length > 1 && a[0] === b[0] && a[a.length - 1] === b[b.length - 1] &&
    (recorded.indexOf("x") >= 0) === (entered.indexOf("x") >= 0);
}

function recordedAt(state, ply) {
  var moves = (state && state.moves) || [];
  for (var i = 0; i < moves.length; i += 1) {
    if (moves[i].ply === ply) {
      return moves[i].move;
    }
  }
  return null;
}

/*
 * Compares the outbox with a state the server sent: a move at a ply already recorded is gone
 * if the server has it (it arrived), refused if the server has another move there.
 */
export function reconcile(state) {
  if (!state || !state.moves || !outbox.items.length) {
    return;
  }
  var touched = false;
  outbox.items = outbox.items.filter(function (item) {
    if (item.ply > state.ply || item.status === "refused" || item.status === "sending") {
      return true;
    }
    var there = recordedAt(state, item.ply);
    if (there && sameMove(there, item.move)) {
      touched = true;
      return false;
    }
    if (item.status === "waiting" || item.status === "held") {
      refuse(item, "Ply " + item.ply + " is already recorded" + (there ? " as " + there : "") + " (ply_conflict).", true);
      touched = true;
    }
    return true;
  });
  if (touched) {
    changed();
  }
}

function refuse(item, reason, quiet) {
  item.status = "refused";
  item.reason = reason;
  outbox.items.forEach(function (other) {
    if (other.ply > item.ply && other.status === "waiting") {
      other.status = "held";
    }
  });
  if (!quiet) {
    changed();
  }
  showAlert("Not recorded: " + item.move + " (ply " + item.ply + "). " + reason +
    " Nothing after it has been sent; the moves entered are kept below.");
}

function unreachable(answer) {
  return !answer || answer.status === 0 || answer.status === 502 || answer.status === 503 || answer.status === 504;
}

function scheduleRetry() {
  if (retryTimer === null) {
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      flush();
    }, RETRY_MS);
  }
}

/* Sends the first waiting move, then the next, in order, until one cannot be sent. */
export function flush() {
  if (outbox.sending) {
    return;
  }
  var item = null;
  for (var i = 0; i < outbox.items.length; i += 1) {
    if (outbox.items[i].status === "waiting") {
      item = outbox.items[i];
      break;
    }
    if (outbox.items[i].status === "held") {
      return;
    }
  }
  if (!item) {
    return;
  }
  outbox.sending = true;
  item.status = "sending";
  changed();
  var done = function () {
    outbox.sending = false;
  };
  request("POST", api + "moves/", { move: item.move, ply: item.ply }, SEND_TIMEOUT_MS)
    .then(function (answer) {
      if (unreachable(answer)) {
        throw new Error("unreachable");
      }
      outbox.online = true;
      if (answer.ok) {
        remove(item);
        done();
        onRecorded(item);
        setState(answer.data, answer);
        flush();
        return null;
      }
      var error = errorOf(answer);
      if (answer.status === 409 && error.code === "ply_conflict") {
        // Arrived already (its answer lost), or another desk took the ply: the state says which.
        return loadState().then(function (read) {
          done();
          if (outbox.items.indexOf(item) < 0) {
            flush(); // reconcile found it recorded
            return;
          }
          var there = read && read.ok ? recordedAt(read.data, item.ply) : null;
          if (there && sameMove(there, item.move)) {
            remove(item);
            flush();
            return;
          }
          if (there) {
            error = Object.assign({}, error, { message: "Ply " + item.ply + " is already recorded as " + there + "." });
          }
          settleRefusal(item, answer, error);
        });
      }
      done();
      settleRefusal(item, answer, error);
      return null;
    })
    .catch(function () {
      done();
      if (outbox.items.indexOf(item) >= 0) {
        item.status = "waiting";
        item.queued = true;
      }
      outbox.online = false;
      changed();
      scheduleRetry();
    });
}

function remove(item) {
  var index = outbox.items.indexOf(item);
  if (index >= 0) {
    outbox.items.splice(index, 1);
    changed();
  }
}

/* A refusal: a move sent at once is explained as before (and not kept); a queued one is kept, refused. */
function settleRefusal(item, answer, error) {
  if (!item.queued && outbox.items[0] === item) {
    remove(item);
    onDirectRefusal(item.move, answer, error);
    return;
  }
  refuse(item, error.message);
  if (answer.status === 409) {
    loadState();
  }
}

/* Sends the held moves again, numbered from the ply after the last one recorded. */
function sendHeld() {
  outbox.items = outbox.items.filter(function (item) {
    return item.status !== "refused";
  });
  var ply = desk.state ? desk.state.ply : 0;
  outbox.items.forEach(function (item) {
    ply += 1;
    item.ply = ply;
    item.status = "waiting";
    item.queued = true;
  });
  changed();
  flush();
}

function discardUnsent() {
  var unsent = outbox.items.filter(function (item) {
    return item.status !== "sending";
  });
  if (!unsent.length || !window.confirm("Discard " + unsent.length + " move(s) not recorded? They are not sent.")) {
    return;
  }
  outbox.items = outbox.items.filter(function (item) {
    return item.status === "sending";
  });
  changed();
}

const WORDS = { sending: "sending…", waiting: "waiting to send", refused: "refused", held: "held: after a refused move" };

/* Shows the outbox: each move with its ply and status, and the connection. */
export function renderOutbox() {
  var box = $("outbox");
  var list = $("outbox-list");
  list.innerHTML = "";
  outbox.items.forEach(function (item) {
    var row = el("li", { "data-testid": "outbox-item", "data-status": item.status, "data-ply": item.ply, class: "outbox-" + item.status });
    row.appendChild(el("span", { class: "outbox-move" }, item.move));
    row.appendChild(el("span", { class: "muted" }, " ply " + item.ply + " · "));
    row.appendChild(el("strong", {}, WORDS[item.status] || item.status));
    if (item.reason) {
      row.appendChild(el("span", { class: "outbox-reason", "data-testid": "outbox-reason" }, " " + item.reason));
    }
    list.appendChild(row);
  });
  var refusedOrHeld = stopped();
  box.hidden = !outbox.items.length && outbox.online;
  $("outbox-send").hidden = !refusedOrHeld;
  $("outbox-discard").hidden = !outbox.items.length;
  var waiting = outbox.items.filter(function (item) {
    return item.status === "waiting" || item.status === "sending";
  }).length;
  $("connection").textContent = (outbox.online ? "Connected." : "No connection: moves entered are kept in this browser and sent when it returns.") +
    (waiting ? " " + waiting + " move(s) waiting to send." : "");
  $("connection").setAttribute("data-online", outbox.online ? "true" : "false");
}

/* ---- the position with the moves not yet recorded ---- */

var SQUARES = {};
for (var s = 1; s <= 32; s += 1) {
  SQUARES[DraughtsBoard.squareRow(s) + "," + DraughtsBoard.squareColumn(s)] = s;
}

function between(from, to) {
  var row = (DraughtsBoard.squareRow(from) + DraughtsBoard.squareRow(to)) / 2;
  var column = (DraughtsBoard.squareColumn(from) + DraughtsBoard.squareColumn(to)) / 2;
  return SQUARES[row + "," + column] || null;
}

/* Applies a move's squares to {side, pieces}; false when they cannot be drawn without the rules. */
function applyPath(position, path) {
  var piece = position.pieces[path[0]];
  if (!piece || path.length < 2) {
    return false;
  }
  var taken = [];
  for (var i = 1; i < path.length; i += 1) {
    var rows = Math.abs(DraughtsBoard.squareRow(path[i]) - DraughtsBoard.squareRow(path[i - 1]));
    if (rows === 2) {
      var jumped = between(path[i - 1], path[i]);
      if (!jumped) {
        return false;
      }
      taken.push(jumped);
    } else if (rows !== 1 || path.length > 2) {
      return false;
    }
  }
  taken.forEach(function (square) {
    delete position.pieces[square];
  });
  delete position.pieces[path[0]];
  var end = path[path.length - 1];
  var crowned = piece.king || (piece.color === "black" ? DraughtsBoard.squareRow(end) === 7 : DraughtsBoard.squareRow(end) === 0);
  position.pieces[end] = { color: piece.color, king: crowned };
  position.side = piece.color === "black" ? "white" : "black";
  return true;
}

function toFen(position) {
  var part = function (color) {
    return Object.keys(position.pieces).filter(function (square) {
      return position.pieces[square].color === color;
    }).map(function (square) {
      return (position.pieces[square].king ? "K" : "") + square;
    }).join(",");
  };
  return (position.side === "white" ? "W" : "B") + ":W" + part("white") + ":B" + part("black");
}

/*
 * The position after the moves not yet recorded: {fen, drawn (how many were drawn), stuck (the
 * first that could not be drawn, or null)}.
 */
export function provisional(fen) {
  var position = DraughtsBoard.parseFen(fen);
  var items = unrecorded();
  for (var i = 0; i < items.length; i += 1) {
    if (!applyPath(position, DraughtsBoard.movePath(items[i].move))) {
      return { fen: toFen(position), drawn: i, stuck: items[i] };
    }
  }
  return { fen: toFen(position), drawn: items.length, stuck: null };
}
