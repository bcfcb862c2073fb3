/*
 * What the public game page (game.js) and the referee console (console/) both do: talk JSON to
 * the API, read the data the page was rendered with, name results, and follow a game's state
 * by polling.
 *
 * A native ES module: no dependencies, no build step. In production the manifest storage
 * (config/storage.py) rewrites the relative paths between the modules to the hashed names.
 */

/* Returns the value of a cookie (for the CSRF token). */
export function cookie(name) {
  var parts = document.cookie ? document.cookie.split(";") : [];
  for (var i = 0; i < parts.length; i += 1) {
    var part = parts[i].trim();
    if (part.indexOf(name + "=") === 0) {
      return decodeURIComponent(part.slice(name.length + 1));
    }
  }
  return null;
}

/*
 * Sends a request to the API and answers {status, ok, data, sent, received}: data is the parsed
 * JSON body (null for an empty one), sent and received the browser's times of the request (for
 * the clock offset). A body that is not JSON is not ok, and its data is an error of the API's
 * shape ({"error": {"code": "bad_response", "message"}}). A body given is sent as JSON, with
 * the CSRF token of the csrftoken cookie in X-CSRFToken. With timeoutMs, a request not answered
 * by then is aborted (the promise rejects, as when the server cannot be reached).
 */
export function request(method, url, body, timeoutMs) {
  var headers = { Accept: "application/json" };
  var options = { method: method, headers: headers, credentials: "same-origin", cache: "no-store" };
  if (timeoutMs && typeof AbortController === "function") {
    var controller = new AbortController();
    window.setTimeout(function () {
      controller.abort();
    }, timeoutMs);
    options.signal = controller.signal;
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = cookie("csrftoken") || "";
    options.body = JSON.stringify(body);
  }
  var sent = Date.now();
  return fetch(url, options).then(function (response) {
    var received = Date.now();
    return response.text().then(function (text) {
      var data = null;
      var ok = response.ok;
      try {
        data = text ? JSON.parse(text) : null;
      } catch (error) {
        data = { error: { code: "bad_response", message: text.slice(0, 200) } };
        ok = false;
      }
      return { status: response.status, ok: ok, data: data, sent: sent, received: received };
    });
  });
}

/* GETs JSON: request("GET", url). */
export function getJson(url) {
  return request("GET", url);
}

/* The error of an answer that is not ok, as the API shapes it: {code, message, details}. */
export function errorOf(answer) {
  var error = (answer.data && answer.data.error) || {};
  return {
    code: error.code || "error_" + answer.status,
    message: error.message || (answer.data && answer.data.detail) || "The server answered " + answer.status + ".",
    details: error.details || {},
  };
}

/* The JSON the page was rendered with ({{ value|json_script:id }}), or null. */
export function readJson(id) {
  var element = document.getElementById(id);
  if (!element) {
    return null;
  }
  try {
    return JSON.parse(element.textContent);
  } catch (error) {
    return null;
  }
}

export function cap(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
}

/* A game's result in words: "Black won (1-0)", "White won (0-1)", "Drawn (1/2-1/2)", else "—". */
export function resultWords(result) {
  return { "1-0": "Black won (1-0)", "0-1": "White won (0-1)", "1/2-1/2": "Drawn (1/2-1/2)" }[result] || "—";
}

/* The API address of a game's state. */
export function gameUrl(gameId) {
  return "/api/v1/games/" + gameId + "/";
}

/*
 * new Poller(fetch, delay): calls fetch() (which returns a promise) again and again, one call
 * at a time, waiting delay() milliseconds between calls. schedule() brings the next call
 * forward when delay() has become shorter (a clock was started, a deadline is near).
 */
export function Poller(fetch, delay) {
  this.fetch = fetch;
  this.delay = delay;
  this.timer = null;
  this.at = 0;
  this.running = false;
}

Poller.prototype.schedule = function (soon) {
  var wait = Math.max(0, soon === undefined ? this.delay() : soon);
  var at = Date.now() + wait;
  if (this.timer !== null) {
    if (at >= this.at) {
      return;
    }
    window.clearTimeout(this.timer);
  }
  this.at = at;
  var self = this;
  this.timer = window.setTimeout(function () {
    self.timer = null;
    self.tick();
  }, wait);
};

Poller.prototype.tick = function () {
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

/*
 * Follows a game's state with poller, as both pages do: polls at once when the page is shown
 * again, and starts from the state written into the page (show(initial)) or, without one, from
 * load() (a promise). The state written into the page is as old as the page: when a clock runs,
 * a fresh one is read at once.
 */
export function followState(poller, initial, show, load) {
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      poller.schedule(0);
    }
  });
  if (initial) {
    show(initial);
    poller.schedule(initial.clocks && initial.clocks.status === "running" ? 0 : undefined);
  } else {
    load().catch(function () {}).then(function () {
      poller.schedule();
    });
  }
}

/*
 * new LiveFeed(url, onEvent): follows a server-sent event stream (config/live.py) and calls
 * onEvent(data) with each event's parsed data. The browser's EventSource reconnects by itself
 * after a drop, saying the last event id it saw (Last-Event-ID: the game's log seq), and the
 * server replays what was missed, in order. up() tells whether the stream is open now; when it
 * cannot be held (no EventSource, the server refuses it, or it stays closed), up() is false and
 * the page polls instead (pollDelay), and the stream is tried again every RETRY_MS.
 */
export function LiveFeed(url, onEvent, onChange) {
  this.url = url;
  this.onEvent = onEvent;
  this.onChange = onChange || function () {};
  this.open = false;
  this.failures = 0; // polls in a row while the stream is down: the back-off
  this.source = null;
  this.connect();
}

LiveFeed.RETRY_MS = 30000;

/* The deployment serves no live path (LIVE_PATH off: a plain WSGI server): the page polls at its
 * own pace, as it did before the streams, with no back-off. */
LiveFeed.absent = function () {
  return document.documentElement.getAttribute("data-live-path") === "off";
};

LiveFeed.prototype.connect = function () {
  if (typeof window.EventSource !== "function" || LiveFeed.absent()) {
    return;
  }
  var self = this;
  var source = new window.EventSource(this.url);
  this.source = source;
  source.onopen = function () {
    self.open = true;
    self.failures = 0;
    document.documentElement.setAttribute("data-live", "open");
    self.onChange(true);
  };
  source.onmessage = function (message) {
    var data = null;
    try {
      data = JSON.parse(message.data);
    } catch (error) {
      return;
    }
    self.onEvent(data);
  };
  source.onerror = function () {
    var was = self.open;
    self.open = false;
    document.documentElement.setAttribute("data-live", source.readyState === 2 ? "closed" : "connecting");
    if (source.readyState === 2) {
      window.setTimeout(function () {
        if (self.source === source) {
          self.connect();
        }
      }, LiveFeed.RETRY_MS);
    }
    if (was) {
      self.onChange(false);
    }
  };
};

LiveFeed.prototype.up = function () {
  return this.open;
};

/* The delay before the next poll: none needed while the stream is open (a slow safety poll), else
 * the page's own delay, doubled after each poll made while the stream is down, up to 4 times it. */
LiveFeed.prototype.pollDelay = function (normal) {
  if (this.open) {
    return 60000;
  }
  if (LiveFeed.absent()) {
    return normal;
  }
  var delay = Math.min(30000, normal * Math.pow(2, Math.min(this.failures, 2)));
  this.failures += 1;
  return delay;
};

/*
 * pageRefresher(element, after): returns refresh(), which reads the page again (the same address)
 * and puts the fresh content (and data- attributes) of the element with the same id in place of the element's own, then
 * calls after() if given (to set up what a script draws in the new content). Calls made while a
 * read is under way are folded into one more read after it: never two at once. refresh.busy() says
 * whether a read is under way (what the page shows, and its data- attributes, may then be behind).
 */
export function pageRefresher(element, after) {
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
      var fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById(element.id);
      if (fresh) {
        element.innerHTML = fresh.innerHTML;
        Array.prototype.forEach.call(fresh.attributes, function (attribute) {
          if (attribute.name.indexOf("data-") === 0) {
            element.setAttribute(attribute.name, attribute.value); // what the content is about (a match's games)
          }
        });
        if (after) {
          after();
        }
      }
    }).catch(function () {}).then(function () {
      reading = false;
      if (again) {
        again = false;
        refresh();
      }
    });
  };
  refresh.busy = function () {
    return reading;
  };
  return refresh;
}

/*
 * Says a new move or ruling to a screen reader: a line in the page's live region (#announcer,
 * role="log", visually hidden), the newest last; the region keeps its last few lines only.
 */
export function announce(text) {
  var region = document.getElementById("announcer");
  if (!region || !text) {
    return;
  }
  var line = document.createElement("p");
  line.textContent = text;
  region.appendChild(line);
  while (region.childNodes.length > 5) {
    region.removeChild(region.firstChild);
  }
}

/* Returns a move in words for the live region: "Move 3, Black: 11-15." */
export function moveWords(move) {
  var side = move.side ? cap(move.side) : "";
  return "Move " + moveNumber(move.ply) + ", " + side + ": " + move.move + ".";
}

/*
 * The page's numbering (the "numbering" JSON of the game pages: the opening, a ballot's moves, and the
 * plies before the game's first move). Black moves first in English draughts: a ballot's three moves
 * are 1. 10-14 22-18 2. 11-15, and the game's first move is White's second, as the printed scoresheet
 * and the PDN number it.
 */
var numbering = null;
export function gameNumbering() {
  if (numbering === null) {
    numbering = readJson("numbering") || {};
    numbering.opening = Array.isArray(numbering.opening) ? numbering.opening : [];
    numbering.plies_before = Number(numbering.plies_before) || 0;
  }
  return numbering;
}

/* The move number of the game's ply (1 is its first move). */
export function moveNumber(ply) {
  return Math.floor((gameNumbering().plies_before + ply + 1) / 2);
}

/* Returns a log entry other than a move in words for the live region, from its kind's label. */
export function entryWords(entry, kinds) {
  var label = (kinds && kinds[entry.kind]) || (entry.kind || "").replace(/_/g, " ");
  return label + (entry.side ? ", " + cap(entry.side) : "") + (entry.law && label.indexOf("Law") < 0 ? " (Law " + entry.law + ")" : "") + ".";
}

/*
 * followList(url, onEvent, refresh): a list page that follows a stream (new LiveFeed(url, onEvent))
 * and reads itself again (refresh()) when the stream comes back after a drop, and every 3 s (with
 * the feed's back-off) while the stream cannot be held. Returns the feed.
 */
export function followList(url, onEvent, refresh) {
  var wasOpen = false;
  var feed = new LiveFeed(url, onEvent, function (open) {
    if (open && wasOpen) {
      refresh(); // back after a drop: what changed meanwhile
    }
    wasOpen = wasOpen || open;
  });
  var poll = function () {
    if (!feed.up()) {
      refresh();
    }
    window.setTimeout(poll, feed.pollDelay(3000));
  };
  window.setTimeout(poll, 3000);
  return feed;
}
