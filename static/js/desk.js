/*
 * The director's desk (the manage page): what saves without a reload.
 *
 * - Check-in: each Present / Absent button saves its mark through the API (POST .../presence/) and
 *   shows it in place; without this script the buttons post their form and the page reloads.
 * - Players of the registry: the search box filters the list by name, club or federation id.
 * - The open round's results grid: one row a game, a result typed in its box (1, 0, =, +, -; u to
 *   undo; the arrows to move; a phone's keyboard types the same) is saved at once through the API,
 *   which records it through the arbitration services and the logs, and the next game gets the focus.
 *   The next step above it follows: when every game has a result, it says to pair the next round.
 */
import { request, errorOf } from "./common.js";

var WORDS = {
  "1-0": "Black won (1-0)",
  "0-1": "White won (0-1)",
  "1/2-1/2": "drawn (½-½)",
  "1-0+": "Black won by forfeit (1-0)",
  "0-1+": "White won by forfeit (0-1)",
};
var SHOWN = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "1-0+": "1-0 forfeit", "0-1+": "0-1 forfeit" };
var KEYS = { 1: "1-0", 0: "0-1", 2: "0-1", "=": "1/2-1/2", d: "1/2-1/2", 5: "1/2-1/2", "+": "1-0+", "-": "0-1+" };

function say(region, text) {
  if (region) {
    region.textContent = text;
  }
}

/* --- check-in ----------------------------------------------------------------------------- */

function checkIn(root) {
  var said = root.querySelector("[data-testid=check-in-said]");
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("check-in-form")) {
      return;
    }
    event.preventDefault();
    var button = event.submitter || form.querySelector("button[value=yes]");
    var present = button.value === "yes";
    var row = form.closest("tr");
    var name = row.cells[0].textContent.trim();
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) {
      b.disabled = true;
    });
    request("POST", form.getAttribute("data-api"), { player: Number(form.elements.player.value), present: present })
      .then(function (answer) {
        if (!answer.ok) {
          throw new Error(errorOf(answer).message);
        }
        var mark = row.querySelector("[data-testid=check-in-mark]");
        mark.textContent = "";
        if (present) {
          mark.textContent = "present";
        } else {
          var strong = document.createElement("strong");
          strong.textContent = "absent";
          mark.appendChild(strong);
        }
        buttons.forEach(function (b) {
          b.setAttribute("aria-pressed", String((b.value === "yes") === present));
        });
        say(said, name + " is marked " + (present ? "present" : "absent") + " for round " + answer.data.round + ".");
      })
      .catch(function (error) {
        say(said, name + ": not saved. " + (error.message || "The server could not be reached."));
      })
      .then(function () {
        buttons.forEach(function (b) {
          b.disabled = false;
        });
      });
  });
}

/* --- players of the registry ------------------------------------------------------------------- */

function playerSearch(form) {
  var box = form.querySelector("[data-testid=player-search]");
  var items = Array.prototype.slice.call(form.querySelectorAll("li[data-search]"));
  var count = form.querySelector("[data-count]");
  var chosen = form.querySelector("[data-chosen]");
  function filter() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item) {
      var text = item.getAttribute("data-search");
      var match = words.every(function (word) {
        return text.indexOf(word) !== -1;
      });
      item.hidden = !match && !item.querySelector("input").checked;
      shown += item.hidden ? 0 : 1;
    });
    count.textContent = String(shown);
  }
  box.addEventListener("input", filter);
  box.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      // Enter in the search box ticks the only player found instead of sending the form.
      event.preventDefault();
      var visible = items.filter(function (item) {
        return !item.hidden && !item.querySelector("input").checked;
      });
      if (visible.length === 1) {
        visible[0].querySelector("input").checked = true;
        chosen.textContent = String(form.querySelectorAll("input[name=player]:checked").length);
        box.value = "";
        filter();
      }
    }
  });
  form.addEventListener("change", function () {
    chosen.textContent = String(form.querySelectorAll("input[name=player]:checked").length);
  });
}

/* --- the results grid ---------------------------------------------------------------------- */

function resultsGrid(grid) {
  var status = grid.querySelector("[data-testid=grid-status]");
  var rows = Array.prototype.slice.call(grid.querySelectorAll("tr[data-game]"));
  var api = grid.getAttribute("data-api");
  var undoApi = grid.getAttribute("data-undo");
  var round = grid.getAttribute("data-round");

  function boxOf(row) {
    return row.querySelector("input.grid-result");
  }

  function show(row, saved, words) {
    var box = boxOf(row);
    box.setAttribute("data-saved", saved);
    box.value = SHOWN[saved] || "";
    row.querySelector("[data-testid=grid-said]").textContent = words;
    row.querySelector("button.grid-undo").disabled = !saved;
    row.classList.toggle("entered", Boolean(saved));
    var link = row.querySelector("a[data-testid^=scoresheet-link]");
    if (link) {
      link.hidden = Boolean(saved);
    }
    stepFollows();
  }

  function stepFollows() {
    var open = rows.filter(function (row) {
      return !boxOf(row).getAttribute("data-saved");
    });
    var text = document.querySelector("[data-testid=next-step-text]");
    var list = document.querySelector("[data-testid=open-games]");
    if (list) {
      list.querySelectorAll("li[data-game]").forEach(function (item) {
        item.hidden = !open.some(function (row) {
          return row.getAttribute("data-game") === item.getAttribute("data-game");
        });
      });
      list.hidden = open.length === 0;
    }
    if (text) {
      text.textContent = open.length
        ? "Enter round " + round + "'s results: " + open.length + " game" + (open.length === 1 ? "" : "s") +
          " still to play."
        : "Every game of round " + round + " has a result: check in the players for the next round and pair it " +
          "(or close the tournament after its last round).";
    }
  }

  function focusRow(index) {
    if (index >= 0 && index < rows.length) {
      boxOf(rows[index]).focus();
    }
  }

  function save(row, value) {
    var box = boxOf(row);
    var before = box.getAttribute("data-saved") || "";
    if (value === before) {
      return;
    }
    var board = row.getAttribute("data-board");
    var forfeit = value.slice(-1) === "+";
    box.value = SHOWN[value];
    row.querySelector("[data-testid=grid-said]").textContent = "saving…";
    request("POST", api, {
      game: Number(row.getAttribute("data-game")),
      result: forfeit ? value.slice(0, -1) : value,
      forfeit: forfeit,
      reason: before ? "Corrected in the results grid." : "Entered in the results grid.",
    }).then(function (answer) {
      if (!answer.ok) {
        box.value = SHOWN[before] || "";
        row.querySelector("[data-testid=grid-said]").textContent = "not saved: " + errorOf(answer).message;
        say(status, "Board " + board + ": not saved. " + errorOf(answer).message);
        return;
      }
      show(row, value, "saved");
      say(status, "Board " + board + ": " + WORDS[value] + ", saved.");
    }, function () {
      box.value = SHOWN[before] || "";
      row.querySelector("[data-testid=grid-said]").textContent = "not saved: the server could not be reached";
      say(status, "Board " + board + ": not saved, the server could not be reached.");
    });
  }

  function undo(row) {
    var board = row.getAttribute("data-board");
    if (!boxOf(row).getAttribute("data-saved")) {
      return;
    }
    request("POST", undoApi, { game: Number(row.getAttribute("data-game")), reason: "Undone in the results grid." })
      .then(function (answer) {
        if (!answer.ok) {
          row.querySelector("[data-testid=grid-said]").textContent = "not undone: " + errorOf(answer).message;
          say(status, "Board " + board + ": not undone. " + errorOf(answer).message);
          return;
        }
        show(row, "", "undone");
        say(status, "Board " + board + ": result undone; the game is open again.");
      }, function () {
        say(status, "Board " + board + ": not undone, the server could not be reached.");
      });
  }

  rows.forEach(function (row, index) {
    var box = boxOf(row);
    box.value = SHOWN[box.getAttribute("data-saved")] || "";
    row.classList.toggle("entered", Boolean(box.getAttribute("data-saved")));
    box.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      var key = event.key;
      if (KEYS[key]) {
        event.preventDefault();
        save(row, KEYS[key]);
        focusRow(index + 1);
      } else if (key === "u" || key === "Backspace" || key === "Delete") {
        event.preventDefault();
        undo(row);
      } else if (key === "ArrowDown" || key === "Enter") {
        event.preventDefault();
        focusRow(index + 1);
      } else if (key === "ArrowUp") {
        event.preventDefault();
        focusRow(index - 1);
      } else if (key.length === 1) {
        event.preventDefault(); // the box holds a result, not text
      }
    });
    box.addEventListener("input", function () {
      // a phone's keyboard sends no usable key: the character typed is read from the box, then put back
      var typed = box.value.replace(SHOWN[box.getAttribute("data-saved")] || "", "").slice(-1);
      box.value = SHOWN[box.getAttribute("data-saved")] || "";
      if (KEYS[typed]) {
        save(row, KEYS[typed]);
      } else if (typed === "u" || typed === "U") {
        undo(row);
      }
    });
    row.querySelector("button.grid-undo").addEventListener("click", function () {
      undo(row);
    });
  });
  stepFollows();
}

var checkInRoot = document.getElementById("check-in");
if (checkInRoot) {
  checkIn(checkInRoot);
}
var pick = document.querySelector("[data-testid=register-players]");
if (pick && pick.querySelector("[data-testid=player-search]")) {
  playerSearch(pick);
}
var grid = document.getElementById("results-grid");
if (grid) {
  resultsGrid(grid);
}
