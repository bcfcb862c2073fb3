/*
 * The state of the game as this console last read it, and the squares clicked so far. Every new
 * state goes to the listeners (main.js redraws the page from it).
 */
import { errorOf, request } from "../common.js";
import { api, gameId, showAlert } from "./page.js";

/* What this desk knows: the game's state, the squares clicked so far, whether a move is on its way. */
export const desk = { state: null, path: [], busy: false };

/* The last state read, kept in the browser while the game runs, for a reload without network. */
const KEPT = "draughts-console-state:" + gameId;

function keepState(state) {
  try {
    if (state.status === "finished") {
      window.localStorage.removeItem(KEPT);
    } else {
      window.localStorage.setItem(KEPT, JSON.stringify(state));
    }
  } catch (error) {
    /* storage full or refused: a reload offline shows the page's own state */
  }
}

/*
 * The newer of the state the page came with and the one kept by an earlier visit (by their log
 * length: the page may be a copy kept by the service worker, older than what the console read
 * since). null when there is neither.
 */
export function newestState(initial) {
  var kept = null;
  try {
    kept = JSON.parse(window.localStorage.getItem(KEPT) || "null");
  } catch (error) {
    kept = null;
  }
  var usable = function (state) {
    return state && state.fen && typeof state.log_length === "number";
  };
  if (!usable(kept)) {
    return usable(initial) ? initial : null;
  }
  return usable(initial) && initial.log_length >= kept.log_length ? initial : kept;
}

const listeners = [];

/* Calls listener(state, answer) with every new state (answer: the request it came from, if any). */
export function onState(listener) {
  listeners.push(listener);
}

export function loadState() {
  return request("GET", api).then(function (answer) {
    if (answer.ok) {
      setState(answer.data, answer);
    } else {
      showAlert("Could not read the game: " + errorOf(answer).message);
    }
    return answer;
  });
}

export function setState(next, answer) {
  if (desk.state && typeof next.log_length === "number" && typeof desk.state.log_length === "number" &&
      next.log_length < desk.state.log_length) {
    /* An older state than the one held (the log only grows): a read sent before a move was
       recorded and answered after it. Taken, it would put the desk back a ply, and the next move
       typed would be sent for a ply already recorded. What the desk knows stands. */
    return;
  }
  if (!next.moves && next.last_move) {
    /* A move's answer carries that move, not the whole list: add it to the list we have, or
       read the whole state when another desk recorded moves in between. */
    var known = (desk.state && desk.state.moves) || [];
    var lastKnown = known.length ? known[known.length - 1].ply : 0;
    if (lastKnown !== next.last_move.ply - 1) {
      loadState();
      return;
    }
    next.moves = known.concat([next.last_move]);
  }
  var changed = !desk.state || next.ply !== desk.state.ply || next.fen !== desk.state.fen || next.status !== desk.state.status;
  desk.state = next;
  keepState(next);
  if (changed) {
    desk.path = [];
  }
  listeners.forEach(function (listener) {
    listener(desk.state, answer);
  });
}
