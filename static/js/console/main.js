/*
 * The referee console: records moves (clicked or typed) and rulings through the API, shows the
 * state of the game and its arbitration log, and polls for changes made elsewhere.
 *
 * API: GET/POST under /api/v1/games/{id}/ (see docs/referee-console.md); session auth, with the
 * CSRF token of the csrftoken cookie sent in X-CSRFToken.
 *
 * Native ES modules, no build step; templates/games/console.html loads this one, which wires
 * the others: page.js (the page, messages), state.js (the state as last read), status.js (the
 * state in words, open choices, constraints), moves.js (the board, click and typed entry, the
 * move list), outbox.js (the moves kept in the browser until the server has them), offline.js
 * (the page kept for a reload without network), rulings.js (the rulings and their dialog),
 * clocks.js (the clocks panel) and log.js (the arbitration log). ../common.js and ../clocks.js are shared with the game page.
 */
import { LiveFeed, Poller, followState, readJson, request } from "../common.js";
import { clocks, setupClocks } from "./clocks.js";
import { followLog, setupLog } from "./log.js";
import { renderBoard, renderEntry, renderMoves, setupMoves } from "./moves.js";
import { setupOffline } from "./offline.js";
import { reachable, reconcile, renderOutbox } from "./outbox.js";
import { $, api, present } from "./page.js";
import { renderRulings, setupRulings } from "./rulings.js";
import { desk, loadState, newestState, onState, setState } from "./state.js";
import { renderChoices, renderConstraints, renderStatus } from "./status.js";

const POLL_MS = 2000; // without a running clock
const CLOCK_POLL_MS = 500; // while a clock runs (and just after each of its deadlines)

var poller = null; // polls the state; made at the start

/* Redraws the page from a new state. */
function renderState(state, answer) {
  reconcile(state); // a move waiting that the server has now is gone; one whose ply it gave another, refused
  renderOutbox();
  renderStatus();
  renderMoves();
  renderChoices();
  renderConstraints();
  renderRulings();
  renderBoard();
  renderEntry();
  clocks.update(state, answer);
  if (poller) {
    poller.schedule(); // sooner when a clock has just started
  }
  followLog(state);
}

/*
 * Polls the state every 2 s, every 500 ms while a clock runs and just after each deadline (the
 * server calls time and adjudicates the loss by itself; each is a log entry, so log_length
 * changes and the state and the log are read again). The clocks are shown from every answer;
 * the rest of the state is redrawn only when it changed, and not while the ruling dialog is open.
 */
function poll() {
  if (desk.busy || document.hidden || !desk.state) {
    return null;
  }
  return request("GET", api).then(function (answer) {
    if (!answer.ok || !desk.state) {
      return;
    }
    var next = answer.data;
    var changed = next.ply !== desk.state.ply || next.fen !== desk.state.fen || next.status !== desk.state.status ||
      next.log_length !== desk.state.log_length;
    if (changed && !desk.busy && !$("ruling-dialog").open) {
      setState(next, answer);
    } else {
      clocks.update(next, answer);
    }
    reachable(true);
  }).catch(function () {
    reachable(false);
  });
}

/*
 * Follows the game by push (config/live.py): an entry later than the state shown (a move or a
 * ruling from another console, the server's time call, a loss by delay) makes the console read
 * the state once; the clocks are shown from the event at once. Polling is the fallback.
 */
var live = null;
var reading = false;
function onLive(event) {
  if (!desk.state || (event.type !== "entry" && event.type !== "state")) {
    return;
  }
  if (event.state && event.state.clocks && event.seq >= desk.state.log_length) {
    clocks.update(Object.assign({}, desk.state, { clocks: event.state.clocks, status: event.state.status }), null);
  }
  if (event.type === "entry" && event.seq > desk.state.log_length && !reading) {
    reading = true;
    Promise.resolve(poll()).then(function () {
      reading = false;
      if (desk.state && event.seq > desk.state.log_length) {
        poller.schedule(200); // busy (a dialog open, a request under way): look again soon
      }
    });
  }
}

function start() {
  setupMoves();
  setupRulings();
  setupClocks();
  setupLog();
  onState(renderState);
  poller = new Poller(poll, function () {
    var normal = clocks.pollDelay(POLL_MS, CLOCK_POLL_MS);
    return live ? live.pollDelay(normal) : normal;
  });
  var initial = newestState(readJson("initial-state")); // the page may be a copy kept for offline use
  var since = initial && initial.log_length !== undefined ? "?since=" + initial.log_length : "";
  live = new LiveFeed("/live/games/" + $("console").getAttribute("data-game-id") + since, onLive);
  followState(poller, initial, setState, loadState);
  setupOffline();
}

if (present) {
  start();
}
