/*
 * The live display of a game's clocks (Laws 24-25), for the public game page and the referee
 * console. The server keeps the clocks and sends, in the state's "clocks" block, the time each
 * side had left at server_now (the database's clock) and which clock runs. Between polls the
 * display counts down from that anchor on the server's time, estimated as the browser's clock
 * plus an offset measured on each answer (server_now against the midpoint of the request), so
 * a browser whose clock is wrong still shows the right time. Time called, the grace and the
 * loss by delay are shown only when the server says so: the display never decides a deadline.
 *
 * A native ES module, no build step.
 */
import { cap } from "./common.js";

var SIDES = ["black", "white"];
var SAMPLES = 15; // the offset is the one measured on the fastest of the last SAMPLES answers

/* Parses an ISO 8601 time; fractions past milliseconds are dropped (not every engine reads them). */
function parseTime(iso) {
  if (!iso) {
    return NaN;
  }
  return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1"));
}

function pad(number) {
  return (number < 10 ? "0" : "") + number;
}

/* Formats seconds left as m:ss (h:mm:ss from an hour), with tenths under 10 s; never negative. */
export function formatClock(seconds) {
  if (typeof seconds !== "number" || !isFinite(seconds)) {
    return "—";
  }
  var left = Math.max(0, seconds);
  if (left < 10) {
    var tenths = Math.floor(left * 10 + 1e-6);
    return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
  }
  var whole = Math.floor(left + 1e-6);
  var hours = Math.floor(whole / 3600);
  var minutes = Math.floor((whole % 3600) / 60);
  var secs = whole % 60;
  return hours ? hours + ":" + pad(minutes) + ":" + pad(secs) : minutes + ":" + pad(secs);
}

/* Formats an allotment as people say it: "45 s", "5 min", "1 min 30 s", "90 min". */
function formatAllotment(seconds) {
  if (typeof seconds !== "number" || !isFinite(seconds)) {
    return "—";
  }
  if (seconds < 60) {
    return (Math.round(seconds * 10) / 10) + " s";
  }
  var minutes = Math.floor(seconds / 60);
  var rest = Math.round(seconds - minutes * 60);
  return minutes + " min" + (rest ? " " + rest + " s" : "");
}

function describeControl(control, moves) {
  if (!control) {
    return "";
  }
  if (control.control === "per-move") {
    return formatAllotment(control.move_seconds) + " a move (" + formatAllotment(control.sole_capture_seconds) +
      " for a sole capture); once time is called, " + formatAllotment(control.grace_seconds) +
      " more to complete it (Law 25).";
  }
  if (control.control === "moves-in-time") {
    var text = control.moves + " moves in " + formatAllotment(control.seconds);
    if (control.then_moves) {
      text += ", then " + control.then_moves + " in " + formatAllotment(control.then_seconds) + " each period";
    }
    if (control.increment_seconds) {
      text += ", plus " + formatAllotment(control.increment_seconds) + " a move";
    }
    if (moves) {
      text += " · moves made: Black " + (moves.black || 0) + ", White " + (moves.white || 0);
    }
    return text + ".";
  }
  return control.control || "";
}

function setText(element, text) {
  if (element && element.textContent !== text) {
    element.textContent = text;
  }
}

function make(tag, className, testid) {
  var element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  if (testid) {
    element.setAttribute("data-testid", testid);
  }
  return element;
}

/*
 * new DraughtsClocks(section): renders into section (its [data-clock-faces],
 * [data-clock-status] and [data-clock-control]); the section is hidden for a game without a
 * clock. update(state, answer) takes a game state and, when it came from a request, the
 * answer's {sent, received} (browser milliseconds) to measure the offset.
 */
export function DraughtsClocks(section) {
  this.section = section;
  this.state = null;
  this.samples = [];
  this.offset = 0;
  this.anchor = NaN; // server_now of the last clocks block, in server milliseconds
  this.shown = { black: null, white: null }; // what the running face shows, never going up within a run
  this.run = null;
  this.faces = {};
  this.listeners = [];
  this.build();
  var self = this;
  this.timer = window.setInterval(function () {
    self.render();
  }, 100);
}

DraughtsClocks.format = formatClock;
DraughtsClocks.parseTime = parseTime;

DraughtsClocks.prototype.build = function () {
  var box = this.section.querySelector("[data-clock-faces]");
  this.status = this.section.querySelector("[data-clock-status]");
  this.control = this.section.querySelector("[data-clock-control]");
  var self = this;
  SIDES.forEach(function (side) {
    var face = make("div", "clock-face", "clock-" + side);
    face.setAttribute("data-side", side);
    var label = make("div", "clock-side");
    var name = make("span", "clock-name", "clock-" + side + "-name");
    label.appendChild(document.createTextNode(cap(side) + " "));
    label.appendChild(name);
    var time = make("div", "clock-time", "clock-" + side + "-time");
    time.setAttribute("role", "timer");
    time.setAttribute("aria-label", cap(side) + "'s clock");
    var flag = make("div", "clock-flag", "clock-" + side + "-flag");
    face.appendChild(label);
    face.appendChild(time);
    face.appendChild(flag);
    box.appendChild(face);
    self.faces[side] = { face: face, name: name, time: time, flag: flag };
  });
};

/* Calls listener() whenever a new clocks block has been shown (the console's buttons follow it). */
DraughtsClocks.prototype.onUpdate = function (listener) {
  this.listeners.push(listener);
};

DraughtsClocks.prototype.clocks = function () {
  return (this.state && this.state.clocks) || null;
};

DraughtsClocks.prototype.update = function (state, answer) {
  if (!state) {
    return;
  }
  this.state = state;
  var clocks = state.clocks;
  this.section.hidden = !clocks;
  if (clocks) {
    var serverNow = parseTime(clocks.server_now);
    if (isFinite(serverNow)) {
      var sent = answer && typeof answer.sent === "number" ? answer.sent : null;
      var received = answer && typeof answer.received === "number" ? answer.received : Date.now();
      // Without the request's times (a state written into the page) the sample is the worst.
      var rtt = sent === null ? Infinity : Math.max(0, received - sent);
      var sample = { offset: serverNow - (sent === null ? received : (sent + received) / 2), rtt: rtt };
      if (!this.samples.length || rtt !== Infinity) {
        this.samples = this.samples.filter(function (item) {
          return item.rtt !== Infinity;
        });
        this.samples.push(sample);
        if (this.samples.length > SAMPLES) {
          this.samples.shift();
        }
        var best = this.samples[0];
        this.samples.forEach(function (item) {
          if (item.rtt < best.rtt) {
            best = item;
          }
        });
        this.offset = best.offset;
      }
      this.anchor = serverNow;
    }
    var run = [clocks.status, clocks.running, clocks.time_called, clocks.next_deadline && clocks.next_deadline.at].join("|");
    if (run !== this.run) {
      this.run = run;
      this.shown = { black: null, white: null };
    }
  }
  this.render();
  this.listeners.forEach(function (listener) {
    listener(clocks);
  });
};

/* The server's time now, as far as the browser can tell (milliseconds). */
DraughtsClocks.prototype.serverNow = function () {
  return Date.now() + this.offset;
};

/* The seconds side has left now (negative after time is called, per-move). */
DraughtsClocks.prototype.remaining = function (side) {
  var clocks = this.clocks();
  if (!clocks || !clocks[side]) {
    return NaN;
  }
  var left = clocks[side].remaining;
  if (clocks[side].running && isFinite(this.anchor)) {
    left -= Math.max(0, this.serverNow() - this.anchor) / 1000;
  }
  return left;
};

/* Milliseconds until the next deadline on the server's time (negative once passed), or null. */
DraughtsClocks.prototype.untilDeadline = function () {
  var clocks = this.clocks();
  if (!clocks || clocks.status !== "running" || !clocks.next_deadline) {
    return null;
  }
  var at = parseTime(clocks.next_deadline.at);
  return isFinite(at) ? at - this.serverNow() : null;
};

/* Milliseconds to wait before the next poll: idle without a running clock, else at most fast,
   and just after the next deadline so that the server's call shows at once. */
DraughtsClocks.prototype.pollDelay = function (idle, fast) {
  var clocks = this.clocks();
  if (!clocks || clocks.status !== "running" || (this.state && this.state.status === "finished")) {
    return idle;
  }
  var delay = fast;
  var until = this.untilDeadline();
  if (until !== null) {
    // The sweepers poll every 50 ms: look 120 ms after the deadline, then every 200 ms.
    var after = until + 120;
    delay = after > 0 ? Math.min(fast, after) : Math.min(fast, 200);
  }
  return Math.max(40, delay);
};

/* The side time was called on or lost on: the side to move (a move resets the call). */
DraughtsClocks.prototype.sideOnMove = function () {
  var clocks = this.clocks();
  return (clocks && (clocks.running || (clocks.next_deadline && clocks.next_deadline.side))) ||
    (this.state && this.state.side_to_move) || null;
};

DraughtsClocks.prototype.render = function () {
  var clocks = this.clocks();
  if (!clocks) {
    return;
  }
  var state = this.state;
  var self = this;
  var control = clocks.control || {};
  var perMove = control.control === "per-move";
  var finished = state.status === "finished";
  var lostByDelay = finished && state.termination === "loss_by_delay";
  var loser = lostByDelay ? (state.result === "1-0" ? "white" : state.result === "0-1" ? "black" : this.sideOnMove()) : null;
  var called = clocks.time_called && !finished ? this.sideOnMove() : null;
  SIDES.forEach(function (side) {
    var face = self.faces[side];
    var running = !!(clocks[side] && clocks[side].running) && !finished;
    var left = self.remaining(side);
    var text;
    var flag = "";
    if (called === side && perMove) {
      // After the call the face counts the grace down (Law 25).
      left += control.grace_seconds || 0;
      flag = "Time called";
    }
    if (running && isFinite(left)) {
      if (self.shown[side] !== null && left > self.shown[side]) {
        left = self.shown[side]; // a new offset never turns the running clock back
      }
      self.shown[side] = left;
    }
    text = formatClock(left);
    if (side === loser) {
      flag = "Loss by delay";
      text = formatClock(0);
    } else if (clocks.status === "paused" && !finished && side === self.sideOnMove()) {
      flag = flag ? flag + " · paused" : "paused";
    }
    setText(face.name, (state[side] && state[side].name) || "");
    setText(face.time, text);
    setText(face.flag, flag);
    face.face.classList.toggle("is-running", running);
    face.face.classList.toggle("is-called", called === side);
    face.face.classList.toggle("is-flagged", side === loser);
    face.face.classList.toggle("is-low", running && isFinite(left) && left < 10);
  });
  var status;
  if (lostByDelay) {
    status = "Loss by delay: " + cap(loser) + " did not complete the move in time (Laws 24-25).";
  } else if (finished && clocks.status === "not_started") {
    status = "Not used: the game was not played on the clock (its moves were entered afterwards).";
  } else if (finished) {
    status = "Stopped: the game is over.";
  } else if (clocks.status === "not_started") {
    status = "Not started.";
  } else if (clocks.status === "paused") {
    status = "Clocks paused (Law 28)" + (clocks.time_called ? "; time had been called on " + cap(this.sideOnMove()) : "") + ".";
  } else if (clocks.status === "stopped") {
    status = "Stopped.";
  } else if (clocks.time_called) {
    status = perMove
      ? "Time called on " + cap(called) + " (Law 25): the move must be completed within the grace of " +
        formatAllotment(control.grace_seconds) + "."
      : "Time called on " + cap(called) + ".";
  } else {
    status = "Running: " + cap(clocks.running) + "'s clock" + (clocks.sole_capture && perMove
      ? " (a sole capture: " + formatAllotment(control.sole_capture_seconds) + ", Law 25)" : "") + ".";
  }
  setText(this.status, status);
  this.status.setAttribute("data-clock-state", lostByDelay ? "loss_by_delay" : finished ? "stopped"
    : clocks.time_called && clocks.status === "running" ? "time_called" : clocks.status);
  // The moves made count those played on the clock: none to count when it never ran.
  var counted = control.control === "moves-in-time" && clocks.status !== "not_started";
  setText(this.control, describeControl(control, counted ? clocks.moves : null));
};
