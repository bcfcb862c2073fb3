/*
 * The referee console: records moves (clicked or typed) and rulings through the API, shows the
 * state of the game and its arbitration log, and polls for changes made elsewhere.
 *
 * API: GET/POST under /api/v1/games/{id}/ (see docs/referee-console.md); session auth, with the
 * CSRF token of the csrftoken cookie sent in X-CSRFToken.
 */
(function () {
  "use strict";

  var root = document.getElementById("console");
  if (!root) {
    return;
  }
  var gameId = root.getAttribute("data-game-id");
  var isDirector = root.getAttribute("data-director") === "true";
  var api = "/api/v1/games/" + gameId + "/";
  var POLL_MS = 2000; // without a running clock
  var CLOCK_POLL_MS = 500; // while a clock runs (and just after each of its deadlines)

  var state = null;
  var path = []; // the squares clicked so far
  var busy = false;
  var lastLogLength = null;
  var terminations = readJson("terminations") || {};

  function readJson(id) {
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

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, attrs, text) {
    var element = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      element.setAttribute(key, attrs[key]);
    });
    if (text !== undefined && text !== null) {
      element.textContent = String(text);
    }
    return element;
  }

  function cap(word) {
    return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
  }

  function other(side) {
    return side === "black" ? "white" : "black";
  }

  /* ---- network ---- */

  /* Answers {status, ok, data, sent, received}: the browser's times of the request (the clock offset). */
  function request(method, url, body) {
    var headers = { Accept: "application/json" };
    var options = { method: method, headers: headers, credentials: "same-origin", cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = DraughtsBoard.cookie("csrftoken") || "";
      options.body = JSON.stringify(body);
    }
    var sent = Date.now();
    return fetch(url, options).then(function (response) {
      var received = Date.now();
      return response.text().then(function (text) {
        var data = null;
        try {
          data = text ? JSON.parse(text) : null;
        } catch (error) {
          data = { error: { code: "bad_response", message: text.slice(0, 200) } };
        }
        return { status: response.status, ok: response.ok, data: data, sent: sent, received: received };
      });
    });
  }

  function errorOf(answer) {
    var error = (answer.data && answer.data.error) || {};
    return {
      code: error.code || "error_" + answer.status,
      message: error.message || (answer.data && answer.data.detail) || "The server answered " + answer.status + ".",
      details: error.details || {},
    };
  }

  /* ---- messages ---- */

  function showAlert(message, extra) {
    var box = $("alert");
    box.innerHTML = "";
    box.appendChild(el("strong", { "data-testid": "alert-message" }, message));
    if (extra) {
      box.appendChild(extra);
    }
    box.hidden = false;
    $("notice").hidden = true;
  }

  function clearAlert() {
    var box = $("alert");
    box.hidden = true;
    box.innerHTML = "";
  }

  function showNotice(message) {
    var box = $("notice");
    box.textContent = message;
    box.hidden = false;
    clearAlert();
  }

  /* ---- state ---- */

  function loadState() {
    return request("GET", api).then(function (answer) {
      if (answer.ok) {
        setState(answer.data, answer);
      } else {
        showAlert("Could not read the game: " + errorOf(answer).message);
      }
      return answer;
    });
  }

  function setState(next, answer) {
    if (!next.moves && next.last_move) {
      /* A move's answer carries that move, not the whole list: add it to the list we have, or
         read the whole state when another desk recorded moves in between. */
      var known = (state && state.moves) || [];
      var lastKnown = known.length ? known[known.length - 1].ply : 0;
      if (lastKnown !== next.last_move.ply - 1) {
        loadState();
        return;
      }
      next.moves = known.concat([next.last_move]);
    }
    var changed = !state || next.ply !== state.ply || next.fen !== state.fen || next.status !== state.status;
    state = next;
    if (changed) {
      path = [];
    }
    renderState();
    clocks.update(state, answer);
    if (poller) {
      poller.schedule(); // sooner when a clock has just started
    }
    if (state.log_length === undefined || state.log_length !== lastLogLength) {
      lastLogLength = state.log_length;
      loadLog();
    }
  }

  function termWords(code) {
    if (!code) {
      return "—";
    }
    return terminations[code] || code.replace(/_/g, " ");
  }

  function resultWords(result) {
    if (result === "1-0") {
      return "Black won (1-0)";
    }
    if (result === "0-1") {
      return "White won (0-1)";
    }
    if (result === "1/2-1/2") {
      return "Drawn (1/2-1/2)";
    }
    return "—";
  }

  function renderState() {
    var finished = state.status === "finished";
    var banner = $("game-status");
    if (finished) {
      banner.textContent = "Game over: " + resultWords(state.result) + " · " + termWords(state.termination);
    } else {
      banner.textContent = cap(state.side_to_move) + " to move · " + state.ply + " plies recorded" +
        (state.status && state.status !== "in_progress" ? " · " + state.status.replace(/_/g, " ") : "");
    }
    $("side-to-move").textContent = finished ? "—" : cap(state.side_to_move);
    $("ply").textContent = String(state.ply);
    var cautions = state.cautions || {};
    $("cautions").textContent = "Black " + (cautions.black || 0) + " · White " + (cautions.white || 0);
    var warnings = state.warnings || {};
    var conduct = warnings.conduct || {};
    var room = warnings.left_room || {};
    $("warnings").textContent = "conduct: Black " + (conduct.black || 0) + ", White " + (conduct.white || 0) +
      " · left room: Black " + (room.black || 0) + ", White " + (room.white || 0);
    var forty = state.forty_move || {};
    var fortyText;
    if (!forty.mode) {
      fortyText = "off";
    } else if (forty.active) {
      fortyText = forty.count + " of " + (forty.limit || 40) + " (" + forty.mode +
        (forty.stronger_side ? ", stronger side " + forty.stronger_side : "") + ")" +
        (forty.awaiting_ruling ? " · RULING REQUIRED: advantage shown or draw" : "");
    } else {
      fortyText = "not running (" + forty.mode + ")";
    }
    $("forty-move").textContent = fortyText;
    var repetition = state.repetition || {};
    $("repetition").textContent = repetition.threshold
      ? "position seen " + (repetition.current || 1) + " time(s); draw at " + repetition.threshold
      : "off" + (repetition.current ? " (position seen " + repetition.current + " time(s))" : "");
    $("result").textContent = resultWords(state.result);
    var termination = $("termination");
    termination.innerHTML = "";
    if (state.termination) {
      termination.appendChild(document.createTextNode(termWords(state.termination) + " "));
      termination.appendChild(el("code", { class: "term" }, state.termination));
    } else {
      termination.textContent = "—";
    }
    renderMoves();
    renderChoices();
    renderConstraints();
    renderRulings();
    renderBoard();
    var writable = state.can_write !== false && !finished;
    $("move-input").disabled = !writable;
    $("move-form").querySelector("button").disabled = !writable;
  }

  function renderMoves() {
    var list = $("move-list");
    list.innerHTML = "";
    var moves = state.moves || [];
    var item = null;
    moves.forEach(function (move, index) {
      var number = Math.floor((move.ply + 1) / 2);
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

  /* ---- board and click entry ---- */

  var board = new DraughtsBoard($("board"), { interactive: true, onSquareClick: squareClicked });
  $("flip-slot").appendChild(DraughtsBoard.flipButton([board], renderBoard));

  /* The legal moves as paths, narrowed by an over-the-angle constraint on the side to move (Law 20). */
  function legalPaths() {
    var moves = ((state && state.legal_moves) || []).map(function (move) {
      return { pdn: move, path: DraughtsBoard.movePath(move) };
    });
    (state && state.constraints || []).forEach(function (constraint) {
      if (constraint.kind === "over_the_angle" && constraint.side === state.side_to_move) {
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
    var moves = (state && state.moves) || [];
    if (!moves.length) {
      return [];
    }
    return DraughtsBoard.movePath(moves[moves.length - 1].move);
  }

  function renderBoard() {
    if (!state) {
      return;
    }
    board.setFen(state.fen);
    var moves = legalPaths();
    var starts = [];
    var landings = [];
    moves.forEach(function (move) {
      if (!path.length) {
        if (starts.indexOf(move.path[0]) < 0) {
          starts.push(move.path[0]);
        }
      } else if (startsWith(move.path, path) && move.path.length > path.length) {
        landings.push(move.path[path.length]);
      }
    });
    board.setMarks({ starts: starts, landings: landings, path: path, last: lastMoveSquares() });
    var selection = $("selection");
    if (path.length) {
      selection.textContent = "Selected: " + path.join(" → ") +
        (landings.length ? " · next landing: " + landings.join(", ") : "") + " (Escape cancels)";
    } else if (state.status === "finished") {
      selection.textContent = "The game is over.";
    } else {
      selection.textContent = "Click a piece of " + cap(state.side_to_move) + ", then its landing square(s).";
    }
    var legal = moves.map(function (move) {
      return move.pdn;
    }).join(", ");
    $("legal-moves").textContent = state.status === "finished" ? "" : "Legal moves: " + (legal || "none") +
      (moves.length < (state.legal_moves || []).length ? " (narrowed by the constraint below)" : "");
  }

  function pieceColorAt(square) {
    var piece = board.position.pieces[square];
    return piece ? piece.color : null;
  }

  function squareClicked(square) {
    if (!state || state.status === "finished" || busy) {
      return;
    }
    var moves = legalPaths();
    if (!path.length) {
      if (pieceColorAt(square) === state.side_to_move) {
        path = [square];
        clearAlert();
      }
      renderBoard();
      return;
    }
    if (square === path[path.length - 1] && path.length === 1) {
      path = []; // clicking the selected piece again cancels
      renderBoard();
      return;
    }
    if (pieceColorAt(square) === state.side_to_move && path.length === 1) {
      path = [square]; // another piece of the side to move: start again from it
      renderBoard();
      return;
    }
    var candidate = path.concat([square]);
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
      path = candidate;
      renderBoard();
      submitMove(exact);
      return;
    }
    if (longer) {
      path = candidate; // a prefix of a longer move: wait for the next landing
      renderBoard();
      if (exact) {
        offerStop(exact);
      }
      return;
    }
    if (pieceColorAt(square)) {
      path = []; // a piece cannot land on an occupied square: cancel
      renderBoard();
      return;
    }
    // Not a legal path: submit what was played so the server gives the reason.
    var attempted = DraughtsBoard.pathToPdn(candidate);
    path = [];
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
    if (path.length) {
      path = [];
      renderBoard();
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !$("ruling-dialog").open) {
      cancelSelection();
    }
  });
  document.addEventListener("click", function (event) {
    if (!path.length) {
      return;
    }
    if (!event.target.closest || !event.target.closest("#board, #selection")) {
      cancelSelection();
    }
  });
  $("cancel-selection").addEventListener("click", cancelSelection);

  $("move-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var text = $("move-input").value.trim();
    if (text) {
      submitMove(text);
    }
  });

  function submitMove(move) {
    if (!state || busy) {
      return;
    }
    busy = true;
    clearAlert();
    request("POST", api + "moves/", { move: move, ply: state.ply + 1 })
      .then(function (answer) {
        busy = false;
        path = [];
        if (answer.status === 201 || answer.ok) {
          $("move-input").value = "";
          showNotice("Recorded " + move + ".");
          setState(answer.data, answer);
          return;
        }
        var error = errorOf(answer);
        if (answer.status === 409) {
          showAlert(error.message + " (" + error.code + ")");
          loadState();
          return;
        }
        if (answer.status === 422) {
          showIllegal(move, error);
          renderBoard();
          return;
        }
        showAlert(error.message + " (" + error.code + ")");
        renderBoard();
      })
      .catch(function (failure) {
        busy = false;
        showAlert("The server could not be reached: " + failure);
      });
  }

  function showIllegal(move, error) {
    var extra = el("div");
    var legal = error.details.legal_moves || (state && state.legal_moves) || [];
    var candidates = error.details.candidates;
    extra.appendChild(el("p", { "data-testid": "refused-move" }, "Refused: " + (error.details.move || move) + " (" + error.code + ")"));
    if (candidates && candidates.length) {
      extra.appendChild(el("p", {}, "It could be: " + candidates.join(", ")));
    }
    extra.appendChild(el("p", { "data-testid": "alert-legal-moves" }, "Legal moves: " + (legal.join(", ") || "none")));
    if (error.code === "illegal_move" && state && state.status !== "finished") {
      var button = el("button", { type: "button", "data-testid": "record-false-move" },
        "Record " + move + " as a false move (Law 21)…");
      button.addEventListener("click", function () {
        openRuling("false_move", { move: move, side: state.side_to_move });
      });
      extra.appendChild(button);
    }
    showAlert(error.message, extra);
  }

  /* ---- open choices and constraints ---- */

  function renderChoices() {
    var box = $("choices");
    box.innerHTML = "";
    var choices = state.open_choices || [];
    if (!choices.length) {
      box.appendChild(el("p", { class: "muted" }, "None."));
      return;
    }
    choices.forEach(function (choice) {
      var block = el("div", { class: "choice", "data-testid": "choice-" + choice.kind });
      if (choice.kind === "huff") {
        block.appendChild(el("p", {}, cap(choice.offender) + " did not capture with " + (choice.move || "the last move") +
          " (Law " + (choice.law || "16") + "). " + cap(choice.chooser) + " chooses:"));
        (choice.pieces || []).forEach(function (square) {
          var huff = el("button", { type: "button", "data-testid": "huff-" + square }, "Huff the piece on " + square);
          huff.addEventListener("click", function () {
            openRuling("huff", { side: choice.chooser, square: square });
          });
          block.appendChild(huff);
        });
        var compel = el("button", { type: "button", "data-testid": "compel" }, "Compel the capture");
        compel.addEventListener("click", function () {
          openRuling("compel", { side: choice.chooser });
        });
        var stand = el("button", { type: "button", "data-testid": "let-stand" }, "Let it stand");
        stand.addEventListener("click", function () {
          openRuling("let_stand", { side: choice.chooser });
        });
        block.appendChild(compel);
        block.appendChild(stand);
      } else if (choice.kind === "own_piece_removed") {
        block.appendChild(el("p", {}, cap(choice.offender) + " removed his own piece on " + choice.square +
          " while capturing (Law " + (choice.law || "12") + "). " + cap(choice.chooser) + " chooses:"));
        ["play_on", "put_back"].forEach(function (value) {
          var button = el("button", { type: "button", "data-testid": "choice-" + value },
            value === "play_on" ? "Play on" : "Put the piece back");
          button.addEventListener("click", function () {
            openRuling("own_piece_removed", { side: choice.offender, square: choice.square, choice: value });
          });
          block.appendChild(button);
        });
      } else {
        block.appendChild(el("p", {}, JSON.stringify(choice)));
      }
      box.appendChild(block);
    });
  }

  function renderConstraints() {
    var box = $("constraints");
    box.innerHTML = "";
    var constraints = state.constraints || [];
    if (!constraints.length) {
      box.appendChild(el("p", { class: "muted" }, "None."));
      return;
    }
    var list = el("ul");
    constraints.forEach(function (item) {
      var text;
      if (item.kind === "over_the_angle") {
        text = cap(item.side) + " must play the piece on " + item.square + " toward " + item.toward + " (Law 20).";
      } else if (item.kind === "compelled_capture") {
        text = cap(item.side) + " must capture (Law 17).";
      } else {
        text = cap(item.side || "") + " " + item.kind.replace(/_/g, " ") + (item.law ? " (Law " + item.law + ")" : "");
      }
      list.appendChild(el("li", { "data-testid": "constraint-" + item.kind }, text));
    });
    box.appendChild(list);
  }

  /* ---- rulings ---- */

  var RULINGS = [
    { kind: "false_move", label: "False move", law: "21", side: "offender", fields: [{ name: "move", label: "The move attempted (PDN)", required: true }], effect: "The game is forfeited at once." },
    { kind: "touch_offence", label: "Touch offence", law: "18", side: "offender", effect: "First offence a caution, the second a forfeit." },
    { kind: "touched_piece_not_played", label: "Touched piece not played", law: "19", side: "offender", fields: [{ name: "square", label: "Square of the touched piece (optional)", type: "number" }], effect: "The game is forfeited." },
    { kind: "over_the_angle", label: "Over the angle", law: "20", side: "offender", fields: [{ name: "square", label: "Square of the piece", type: "number", required: true }, { name: "toward", label: "Toward square", type: "number", required: true }], effect: "The next move of that side must be that piece in that direction." },
    { kind: "own_piece_removed", label: "Own piece removed", law: "12", side: "offender", fields: [{ name: "square", label: "Square of the piece removed", type: "number", required: true }], effect: "The opponent chooses: play on or put the piece back." },
    { kind: "not_crowned", label: "Not crowned", law: "15", side: "offender", fields: [{ name: "ply", label: "Ply of the move that should have crowned", type: "number", required: true }], effect: "Play is put back to the crowning." },
    { kind: "conduct", label: "Conduct", law: "29", side: "offender", effect: "First a warning, the second a forfeit." },
    { kind: "left_room", label: "Left the room", law: "30", side: "offender", effect: "First a warning, the second a forfeit." },
    { kind: "spectator", label: "Spectator", law: "31", side: "optional", fields: [{ name: "note", label: "What happened", required: true, textarea: true }], effect: "Logged against the event; no effect on the game." },
    { kind: "forty_move_notice", label: "40-move notice", law: "22", side: "weaker", effect: "The stronger side's moves are counted from now." },
    { kind: "forty_move_ruling", label: "40-move ruling", law: "22", side: "none", fields: [{ name: "outcome", label: "Outcome", choices: [["advantage_shown", "Advantage shown: play on"], ["draw", "Draw"]], required: true }], effect: "Advantage shown: play on; or the game is drawn." },
    { kind: "repetition_claim", label: "Repetition claim", law: "", side: "claimant", fields: [{ name: "move", label: "The move that would repeat the position (PDN)", required: true }], effect: "Drawn if the move repeats the position the required number of times; refused otherwise." },
    { kind: "draw_agreed", label: "Draw agreed", law: "", side: "none", effect: "The game is drawn by agreement." },
    { kind: "resign", label: "Resign", law: "", side: "resigner", effect: "The side resigns; the opponent wins." },
    { kind: "adjudicate", label: "Adjudicate", law: "", side: "none", director: true, fields: [{ name: "result", label: "Result", choices: [["1-0", "Black wins (1-0)"], ["0-1", "White wins (0-1)"], ["1/2-1/2", "Draw (1/2-1/2)"]], required: true }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "The director decides the result." },
    { kind: "appeal", label: "Appeal", law: "28", side: "appellant", fields: [{ name: "entry", label: "Log entry appealed (#)", type: "number", required: true }, { name: "statement", label: "Written statement", required: true, textarea: true }, { name: "arbiter", label: "Arbiter (username)", required: true }], effect: "The statement goes to the named arbiter." },
    { kind: "appeal_decision", label: "Appeal decision", law: "28", side: "none", fields: [{ name: "appeal", label: "Appeal entry (#)", type: "number", required: true }, { name: "decision", label: "Decision", choices: [["upheld", "Ruling upheld"], ["overturned", "Ruling overturned"]], required: true }, { name: "result", label: "New result (when overturned)", choices: [["", "unchanged"], ["1-0", "Black wins (1-0)"], ["0-1", "White wins (0-1)"], ["1/2-1/2", "Draw (1/2-1/2)"]] }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "Final: only the named arbiter may decide." },
    { kind: "correction", label: "Correction", law: "", side: "none", fields: [{ name: "entry", label: "Log entry corrected (#)", type: "number", required: true }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "A new entry supersedes the old one." },
  ];

  var LABELS = {
    huff: { label: "Huff", law: "16", effect: "The piece is removed; the huff is not a move." },
    compel: { label: "Compel the capture", law: "17", effect: "The move is taken back and a capture must be made." },
    let_stand: { label: "Let it stand", law: "17", effect: "The move stands." },
  };

  function rulingDefinition(kind) {
    var all = RULINGS.concat(CLOCK_RULINGS);
    for (var i = 0; i < all.length; i += 1) {
      if (all[i].kind === kind) {
        return all[i];
      }
    }
    return null;
  }

  function buttonText(ruling) {
    return ruling.label + (ruling.law ? (/[-,]/.test(ruling.law) ? " (Laws " : " (Law ") + ruling.law + ")" : "");
  }

  /* Rulings that may still be recorded once the game is over. */
  var AFTER_THE_GAME = ["appeal", "appeal_decision", "correction", "spectator"];

  function renderRulings() {
    var box = $("rulings");
    if (!box.childElementCount) {
      buildRulings(box, RULINGS);
    }
    var finished = state.status === "finished";
    Array.prototype.forEach.call(box.querySelectorAll("button"), function (button) {
      var kind = button.getAttribute("data-kind");
      var afterGame = AFTER_THE_GAME.indexOf(kind) >= 0;
      button.disabled = (finished && !afterGame) ||
        (state.can_write === false && kind !== "appeal" && kind !== "appeal_decision");
    });
  }

  function buildRulings(box, rulings) {
    rulings.forEach(function (ruling) {
      if (ruling.director && !isDirector) {
        return;
      }
      var button = el("button", { type: "button", "data-kind": ruling.kind, "data-testid": "ruling-" + ruling.kind }, buttonText(ruling));
      button.addEventListener("click", function () {
        openRuling(ruling.kind, {});
      });
      box.appendChild(button);
    });
  }

  var pending = null; // {kind, preset}

  function sideField(ruling, preset) {
    var mode = ruling.side;
    if (mode === "none" && !preset.side) {
      return null;
    }
    var legend = {
      offender: "Which player?",
      weaker: "The weaker side, giving notice",
      claimant: "The claimant (must be the side to move)",
      resigner: "Who resigns?",
      appellant: "Who appeals?",
      optional: "Against which player (optional)?",
      chooser: "Who chooses?",
      clock: "Whose clock?",
    }[mode] || "Side";
    var fieldset = el("fieldset", { "data-testid": "ruling-side" });
    fieldset.appendChild(el("legend", {}, legend));
    var options = mode === "optional" ? ["", "black", "white"] : ["black", "white"];
    var chosen = preset.side || (mode === "claimant" && state ? state.side_to_move : "");
    options.forEach(function (side) {
      var label = el("label");
      var input = el("input", { type: "radio", name: "side", value: side });
      if (side === chosen) {
        input.checked = true;
      }
      if (mode !== "optional") {
        input.required = true;
      }
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + (side ? cap(side) : "Neither")));
      fieldset.appendChild(label);
    });
    return fieldset;
  }

  function fieldElement(field, preset) {
    var label = el("label", {}, field.label);
    var input;
    if (field.choices) {
      input = el("select", { name: field.name });
      field.choices.forEach(function (choice) {
        var option = el("option", { value: choice[0] }, choice[1]);
        input.appendChild(option);
      });
    } else if (field.textarea) {
      input = el("textarea", { name: field.name, rows: "2" });
    } else {
      input = el("input", { name: field.name, type: field.type === "number" ? "number" : "text" });
      if (field.type === "number" && field.min !== null) {
        input.setAttribute("min", field.min === undefined ? "1" : String(field.min));
      }
      if (field.step) {
        input.setAttribute("step", field.step);
      }
    }
    input.setAttribute("data-testid", "ruling-field-" + field.name);
    if (field.required) {
      input.required = true;
    }
    if (preset[field.name] !== undefined) {
      input.value = String(preset[field.name]);
    }
    label.appendChild(input);
    return label;
  }

  function openRuling(kind, preset) {
    var ruling = rulingDefinition(kind);
    var fields = [];
    if (!ruling) {
      var info = LABELS[kind];
      ruling = { kind: kind, label: info.label, law: info.law, side: "chooser", effect: info.effect, fields: [] };
      if (kind === "huff") {
        fields = []; // the square is the piece the chooser picked (preset)
      }
    } else {
      fields = ruling.fields || [];
    }
    pending = { kind: kind, ruling: ruling, preset: preset };
    $("ruling-dialog-title").textContent = "Confirm: " + buttonText(ruling);
    var text = ruling.effect || "";
    if (kind === "huff") {
      text = cap(preset.side) + " huffs the piece on " + preset.square + ". " + text;
    }
    if (kind === "own_piece_removed" && preset.choice) {
      text = cap(other(preset.side)) + " chooses: " + (preset.choice === "play_on" ? "play on" : "put the piece back") + ".";
      fields = [];
    }
    $("ruling-dialog-text").textContent = text;
    $("ruling-dialog-context").textContent = "Game " + gameId + (state ? " · " + (state.black || {}).name + " (Black) v " +
      (state.white || {}).name + " (White) · after ply " + state.ply + (state.status === "finished" ? " · finished" :
      " · " + cap(state.side_to_move) + " to move") : "");
    var box = $("ruling-fields");
    box.innerHTML = "";
    var side = sideField(ruling, preset);
    if (side && !(preset.side && (ruling.side === "chooser" || preset.choice))) {
      box.appendChild(side);
    } else if (preset.side) {
      box.appendChild(el("p", { "data-testid": "ruling-preset-side" }, "Side: " + cap(preset.side)));
    }
    fields.forEach(function (field) {
      box.appendChild(fieldElement(field, preset));
    });
    var hasNote = fields.some(function (field) {
      return field.name === "note";
    });
    if (!hasNote) {
      box.appendChild(fieldElement({ name: "note", label: "Note (optional)", textarea: true }, preset));
    }
    $("ruling-error").hidden = true;
    $("ruling-error").textContent = "";
    $("ruling-confirm").disabled = false;
    $("ruling-dialog").showModal();
  }

  function collectRuling() {
    var form = $("ruling-form");
    var preset = pending.preset;
    var body = { kind: pending.kind };
    Object.keys(preset).forEach(function (key) {
      body[key] = preset[key];
    });
    var sideInput = form.querySelector("input[name=side]:checked");
    if (sideInput && sideInput.value) {
      body.side = sideInput.value;
    }
    Array.prototype.forEach.call(form.querySelectorAll("#ruling-fields select, #ruling-fields textarea, #ruling-fields input:not([type=radio])"), function (input) {
      var value = input.value.trim();
      if (value === "") {
        return;
      }
      if (input.type === "number") {
        body[input.name] = input.getAttribute("step") === "any" ? parseFloat(value) : parseInt(value, 10);
      } else {
        body[input.name] = value;
      }
    });
    ["square", "toward", "ply", "entry", "appeal"].forEach(function (key) {
      if (typeof body[key] === "string" && /^\d+$/.test(body[key])) {
        body[key] = parseInt(body[key], 10);
      }
    });
    return body;
  }

  $("ruling-cancel").addEventListener("click", function () {
    pending = null;
    $("ruling-dialog").close();
  });

  $("ruling-form").addEventListener("submit", function (event) {
    event.preventDefault();
    if (!pending) {
      return;
    }
    var form = $("ruling-form");
    if (!form.reportValidity()) {
      return;
    }
    var body = collectRuling();
    $("ruling-confirm").disabled = true;
    request("POST", api + "rulings/", body)
      .then(function (answer) {
        $("ruling-confirm").disabled = false;
        if (answer.ok) {
          $("ruling-dialog").close();
          pending = null;
          clearAlert();
          showNotice("Recorded: " + buttonText(rulingDefinition(body.kind) || { label: (LABELS[body.kind] || {}).label || body.kind, law: (LABELS[body.kind] || {}).law }) +
            (body.side ? " · " + cap(body.side) : "") + ".");
          setState(answer.data, answer);
          return;
        }
        var error = errorOf(answer);
        var box = $("ruling-error");
        box.textContent = error.message + " (" + error.code + ")";
        box.hidden = false;
        if (answer.status === 409) {
          loadState();
        }
      })
      .catch(function (failure) {
        $("ruling-confirm").disabled = false;
        var box = $("ruling-error");
        box.textContent = "The server could not be reached: " + failure;
        box.hidden = false;
      });
  });

  /* ---- the clocks (Laws 24-25) ---- */

  /* The clock rulings: buttons in the Clocks panel, confirmed in the ruling dialog like the others. */
  var CLOCK_RULINGS = [
    { kind: "clock_start", label: "Start clock", law: "24-25", side: "none", when: "not_started", effect: "Starts the clock of the side to move. From then on the server keeps the time: it calls time at the limit and adjudicates the loss by delay by itself." },
    { kind: "clock_pause", label: "Pause clock", law: "28", side: "none", when: "running", effect: "Stops the running clock for a dispute or a ruling; the time left is kept." },
    { kind: "clock_resume", label: "Resume clock", law: "", side: "none", when: "paused", effect: "Starts the paused clock of the side to move again." },
    { kind: "clock_adjust", label: "Adjust clock", law: "", side: "clock", director: true, when: "adjustable", fields: [{ name: "seconds", label: "Seconds to add (negative to take away)", type: "number", step: "any", min: null, required: true }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "Adds time to a player's clock, or takes it away (directors only)." },
  ];

  var clocks = new DraughtsClocks($("clocks"));
  var poller = null; // polls the state; made at the start


  /* Each clock button is enabled when its ruling applies to the clocks as last read. */
  function renderClockButtons(block) {
    var latest = clocks.state || state || {};
    var status = block ? block.status : null;
    Array.prototype.forEach.call($("clock-rulings").querySelectorAll("button"), function (button) {
      var ruling = rulingDefinition(button.getAttribute("data-kind"));
      var applies = ruling.when === "adjustable" ? status !== null && status !== "stopped" : status === ruling.when;
      button.disabled = !applies || latest.status === "finished" || latest.can_write === false;
    });
  }

  buildRulings($("clock-rulings"), CLOCK_RULINGS);
  clocks.onUpdate(renderClockButtons);

  /* ---- the log ---- */

  function loadLog() {
    return request("GET", api + "log/").then(function (answer) {
      if (!answer.ok) {
        return;
      }
      var entries = Array.isArray(answer.data) ? answer.data : (answer.data && (answer.data.results || answer.data.entries)) || [];
      renderLog(entries);
    });
  }

  function summarise(value) {
    if (Array.isArray(value)) {
      return value.join(", ");
    }
    return Object.keys(value).filter(function (key) {
      return value[key] !== null && value[key] !== undefined && typeof value[key] !== "object";
    }).map(function (key) {
      return key + ": " + value[key];
    }).join(", ");
  }

  function describeData(entry) {
    var data = entry.data || {};
    var parts = [];
    ["move", "square", "toward", "outcome", "result", "choice", "decision", "reason", "statement", "arbiter",
      "seconds", "before", "after", "late_ms"].forEach(function (key) {
      var value = data[key];
      if (value !== undefined && value !== null && value !== "") {
        parts.push(key + " " + (typeof value === "object" ? summarise(value) : value));
      }
    });
    return parts.join(", ");
  }

  function renderLog(entries) {
    var body = $("log-body");
    body.innerHTML = "";
    entries.slice().sort(function (a, b) {
      return b.seq - a.seq;
    }).forEach(function (entry) {
      var row = el("tr", { "data-testid": "log-entry", "data-kind": entry.kind, "data-seq": entry.seq });
      var when = entry.created_at ? new Date(entry.created_at) : null;
      row.appendChild(el("td", {}, entry.seq));
      row.appendChild(el("td", { title: entry.created_at || "" }, when && !isNaN(when) ? when.toLocaleTimeString() : ""));
      row.appendChild(el("td", {}, entry.kind ? entry.kind.replace(/_/g, " ") : ""));
      row.appendChild(el("td", {}, entry.side || ""));
      row.appendChild(el("td", {}, entry.law || ""));
      row.appendChild(el("td", {}, entry.ply === undefined ? "" : entry.ply));
      var note = [entry.note || "", describeData(entry)].filter(Boolean).join(" · ");
      if (entry.supersedes) {
        note += (note ? " · " : "") + "supersedes #" + entry.supersedes;
      }
      row.appendChild(el("td", { class: "note" }, note));
      row.appendChild(el("td", {}, entry.actor || "system"));
      body.appendChild(row);
    });
    if (!entries.length) {
      var empty = el("tr");
      empty.appendChild(el("td", { colspan: "8", class: "muted" }, "No entries."));
      body.appendChild(empty);
    }
  }

  $("verify-log").addEventListener("click", function () {
    var out = $("verify-result");
    out.textContent = "Checking…";
    request("GET", api + "log/verify").then(function (answer) {
      if (!answer.ok) {
        out.textContent = "Could not verify: " + errorOf(answer).message;
        return;
      }
      var report = answer.data;
      out.textContent = report.valid
        ? "The chain holds: " + report.entries + " entries verified."
        : "The chain is BROKEN at entry #" + report.broken_at + ": " + (report.reason || "") + " (" + report.entries + " entries).";
      out.className = report.valid ? "" : "error";
    });
  });

  /* ---- start and poll ---- */

  /*
   * Polls the state every 2 s, every 500 ms while a clock runs and just after each deadline (the
   * server calls time and adjudicates the loss by itself; each is a log entry, so log_length
   * changes and the state and the log are read again). The clocks are shown from every answer;
   * the rest of the state is redrawn only when it changed, and not while the ruling dialog is open.
   */
  function poll() {
    if (busy || document.hidden || !state) {
      return null;
    }
    return request("GET", api).then(function (answer) {
      if (!answer.ok || !state) {
        return;
      }
      var next = answer.data;
      var changed = next.ply !== state.ply || next.fen !== state.fen || next.status !== state.status ||
        next.log_length !== state.log_length;
      if (changed && !busy && !$("ruling-dialog").open) {
        setState(next, answer);
      } else {
        clocks.update(next, answer);
      }
    }).catch(function () {});
  }

  poller = new DraughtsPoller(poll, function () {
    return clocks.pollDelay(POLL_MS, CLOCK_POLL_MS);
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      poller.schedule(0);
    }
  });

  var initial = readJson("initial-state");
  if (initial && initial.fen) {
    setState(initial);
    // The state written into the page is as old as the page: read a fresh one at once when a clock runs.
    poller.schedule(initial.clocks && initial.clocks.status === "running" ? 0 : undefined);
  } else {
    loadState().catch(function () {}).then(function () {
      poller.schedule();
    });
  }
})();
