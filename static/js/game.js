/*
 * The public game page: a read-only board and the moves to step through (buttons, the move
 * list and the arrow keys). The position after each ply is moves[i].fen_after of the state.
 *
 * This file also defines window.DraughtsClocks, the live display of a game's clocks (Laws
 * 24-25), and window.DraughtsPoller; the referee console loads it before console.js for them.
 */
(function (global) {
  "use strict";

  /*
   * The clocks. The server keeps them and sends, in the state's "clocks" block, the time each
   * side had left at server_now (the database's clock) and which clock runs. Between polls the
   * display counts down from that anchor on the server's time, estimated as the browser's clock
   * plus an offset measured on each answer (server_now against the midpoint of the request), so
   * a browser whose clock is wrong still shows the right time. Time called, the grace and the
   * loss by delay are shown only when the server says so: the display never decides a deadline.
   */

  var SIDES = ["black", "white"];
  var SAMPLES = 15; // the offset is the one measured on the fastest of the last SAMPLES answers

  function cap(word) {
    return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
  }

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
  function formatClock(seconds) {
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

  /* Formats an allotment: "45 s", "5:00", "1:00:00". */
  function formatAllotment(seconds) {
    if (typeof seconds !== "number" || !isFinite(seconds)) {
      return "—";
    }
    if (seconds < 60) {
      return (Math.round(seconds * 10) / 10) + " s";
    }
    return formatClock(seconds);
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
  function DraughtsClocks(section) {
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
    this.timer = global.setInterval(function () {
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
    setText(this.control, describeControl(control, control.control === "moves-in-time" ? clocks.moves : null));
  };

  /*
   * new DraughtsPoller(fetch, delay): calls fetch() (which returns a promise) again and again,
   * one call at a time, waiting delay() milliseconds between calls. schedule() brings the next
   * call forward when delay() has become shorter (a clock was started, a deadline is near).
   */
  function DraughtsPoller(fetch, delay) {
    this.fetch = fetch;
    this.delay = delay;
    this.timer = null;
    this.at = 0;
    this.running = false;
  }

  DraughtsPoller.prototype.schedule = function (soon) {
    var wait = Math.max(0, soon === undefined ? this.delay() : soon);
    var at = Date.now() + wait;
    if (this.timer !== null) {
      if (at >= this.at) {
        return;
      }
      global.clearTimeout(this.timer);
    }
    this.at = at;
    var self = this;
    this.timer = global.setTimeout(function () {
      self.timer = null;
      self.tick();
    }, wait);
  };

  DraughtsPoller.prototype.tick = function () {
    if (this.running) {
      return; // the call under way schedules the next one
    }
    this.running = true;
    var self = this;
    var done = function () {
      self.running = false;
      self.schedule();
    };
    var promise;
    try {
      promise = this.fetch();
    } catch (error) {
      promise = null;
    }
    Promise.resolve(promise).then(done, done);
  };

  /* Fetches JSON with the request's times, for the clock offset: {ok, status, data, sent, received}. */
  DraughtsPoller.getJson = function (url) {
    var sent = Date.now();
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        var received = Date.now();
        return response.json().then(function (data) {
          return { ok: response.ok, status: response.status, data: data, sent: sent, received: received };
        }, function () {
          return { ok: false, status: response.status, data: null, sent: sent, received: received };
        });
      });
  };

  global.DraughtsClocks = DraughtsClocks;
  global.DraughtsPoller = DraughtsPoller;
})(window);

/* ---- the public game page ---- */
(function () {
  "use strict";

  var root = document.getElementById("game-page");
  if (!root) {
    return;
  }
  var gameId = root.getAttribute("data-game-id");
  var startFen = root.getAttribute("data-start-fen");
  var board = new DraughtsBoard(document.getElementById("board"), { interactive: false });
  document.getElementById("flip-slot").appendChild(DraughtsBoard.flipButton([board], show));
  var moves = [];
  var index = 0; // plies shown: 0 is the start position

  function readJson(id) {
    var element = document.getElementById(id);
    try {
      return element ? JSON.parse(element.textContent) : null;
    } catch (error) {
      return null;
    }
  }

  var terminations = readJson("terminations") || {};
  var lastPly = null;
  var lastStatus = null;
  var POLL_MS = 3000; // without a running clock
  var CLOCK_POLL_MS = 500; // while a clock runs
  var clockSection = document.getElementById("clocks");
  var clocks = clockSection ? new DraughtsClocks(clockSection) : null;

  function resultWords(result) {
    return { "1-0": "Black won (1-0)", "0-1": "White won (0-1)", "1/2-1/2": "Drawn (1/2-1/2)" }[result] || "—";
  }

  function setText(testid, text) {
    var element = document.querySelector('[data-testid="' + testid + '"]');
    if (element) {
      element.textContent = text;
    }
  }

  /* Shows a new state; a viewer on the last ply follows the game as it goes on. */
  function setState(state, answer) {
    if (clocks) {
      clocks.update(state, answer);
    }
    var following = index === moves.length;
    moves = state.moves || [];
    startFen = state.start_fen || startFen;
    if (following || index > moves.length) {
      index = moves.length;
    }
    if (lastStatus !== null && state.status !== lastStatus && state.status === "finished") {
      var termination = terminations[state.termination] || state.termination || "";
      setText("result", resultWords(state.result) + " · " + termination);
      setText("status", "Finished");
      setText("result-words", resultWords(state.result));
      setText("termination", termination + " " + (state.termination || ""));
    }
    lastPly = state.ply;
    lastStatus = state.status;
    renderList();
    show();
  }

  /* Follows the game: every 3 s, every 500 ms while a clock runs (and just after its deadline). */
  function poll() {
    if (lastStatus === "finished" || document.hidden) {
      return null;
    }
    return DraughtsPoller.getJson("/api/v1/games/" + gameId + "/")
      .then(function (answer) {
        var state = answer.ok ? answer.data : null;
        if (!state) {
          return;
        }
        if (state.ply !== lastPly || state.status !== lastStatus) {
          setState(state, answer);
        } else if (clocks) {
          clocks.update(state, answer);
        }
      })
      .catch(function () {});
  }
  var poller = new DraughtsPoller(poll, function () {
    return clocks ? clocks.pollDelay(POLL_MS, CLOCK_POLL_MS) : POLL_MS;
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      poller.schedule(0);
    }
  });

  function renderList() {
    var list = document.getElementById("move-list");
    list.innerHTML = "";
    var item = null;
    moves.forEach(function (move, i) {
      var number = Math.floor((move.ply + 1) / 2);
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
      label.textContent = "Start position (" + moves.length + " plies in the game)";
    } else {
      var move = moves[index - 1];
      var number = Math.floor((move.ply + 1) / 2);
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
  if (initial && initial.moves) {
    setState(initial);
    // The state written into the page is as old as the page: read a fresh one at once when a clock runs.
    poller.schedule(initial.clocks && initial.clocks.status === "running" ? 0 : undefined);
  } else {
    board.setFen(startFen);
    DraughtsPoller.getJson("/api/v1/games/" + gameId + "/")
      .then(function (answer) {
        if (answer.ok && answer.data) {
          setState(answer.data, answer);
        }
      })
      .catch(function () {})
      .then(function () {
        poller.schedule();
      });
  }
})();
