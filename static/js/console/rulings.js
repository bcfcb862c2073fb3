/*
 * Rulings: what each ruling asks for (the clock rulings too), their buttons, and the dialog that
 * confirms one and records it through the API. The rulings' buttons, each with its law, sit in
 * one sheet opened by the Rulings… button (the clock rulings stay in the Clocks panel); choosing
 * one closes the sheet and opens the dialog.
 */
import { cap, errorOf, request } from "../common.js";
import { $, api, clearAlert, el, gameId, isDirector, other, showNotice } from "./page.js";
import { desk, loadState, setState } from "./state.js";

const RULINGS = [
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
  { kind: "appeal", label: "Appeal", law: "28", side: "appellant", fields: [{ name: "entry", label: "Log entry appealed (#)", type: "number", required: true }, { name: "statement", label: "Written statement", required: true, textarea: true }], effect: "The statement goes to the tournament's arbiters (a standalone game's director); nobody is named by the appellant." },
  { kind: "appeal_decision", label: "Appeal decision", law: "28", side: "none", fields: [{ name: "appeal", label: "Appeal entry (#)", type: "number", required: true }, { name: "decision", label: "Decision", choices: [["upheld", "Ruling upheld"], ["overturned", "Ruling overturned"]], required: true }, { name: "result", label: "New result (when overturned)", choices: [["", "unchanged"], ["1-0", "Black wins (1-0)"], ["0-1", "White wins (0-1)"], ["1/2-1/2", "Draw (1/2-1/2)"]] }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "Final: only an arbiter the appeal went to, disinterested, may decide." },
  { kind: "correction", label: "Correction", law: "", side: "none", fields: [{ name: "entry", label: "Log entry corrected (#)", type: "number", required: true }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "A new entry supersedes the old one." },
];

const LABELS = {
  huff: { label: "Huff", law: "16", effect: "The piece is removed; the huff is not a move." },
  compel: { label: "Compel the capture", law: "17", effect: "The move is taken back and a capture must be made." },
  let_stand: { label: "Let it stand", law: "17", effect: "The move stands." },
};

export function rulingDefinition(kind) {
  var all = RULINGS.concat(CLOCK_RULINGS);
  for (var i = 0; i < all.length; i += 1) {
    if (all[i].kind === kind) {
      return all[i];
    }
  }
  return null;
}

export function buttonText(ruling) {
  return ruling.label + (ruling.law ? (/[-,]/.test(ruling.law) ? " (Laws " : " (Law ") + ruling.law + ")" : "");
}

/* The clock rulings: buttons in the Clocks panel, confirmed in the ruling dialog like the others. */
export const CLOCK_RULINGS = [
  { kind: "clock_start", label: "Start clock", law: "24-25", side: "none", when: "not_started", effect: "Starts the clock of the side to move. From then on the server keeps the time: it calls time at the limit and adjudicates the loss by delay by itself." },
  { kind: "clock_pause", label: "Pause clock", law: "28", side: "none", when: "running", effect: "Stops the running clock for a dispute or a ruling; the time left is kept." },
  { kind: "clock_resume", label: "Resume clock", law: "", side: "none", when: "paused", effect: "Starts the paused clock of the side to move again." },
  { kind: "clock_adjust", label: "Adjust clock", law: "", side: "clock", director: true, when: "adjustable", fields: [{ name: "seconds", label: "Seconds to add (negative to take away)", type: "number", step: "any", min: null, required: true }, { name: "reason", label: "Reason", required: true, textarea: true }], effect: "Adds time to a player's clock, or takes it away (directors only)." },
];

/* Rulings that may still be recorded once the game is over. */
const AFTER_THE_GAME = ["appeal", "appeal_decision", "correction", "spectator"];

export function renderRulings() {
  var box = $("rulings");
  if (!box.childElementCount) {
    buildRulings(box, RULINGS);
  }
  var finished = desk.state.status === "finished";
  Array.prototype.forEach.call(box.querySelectorAll("button"), function (button) {
    var kind = button.getAttribute("data-kind");
    var afterGame = AFTER_THE_GAME.indexOf(kind) >= 0;
    button.disabled = (finished && !afterGame) ||
      (desk.state.can_write === false && kind !== "appeal" && kind !== "appeal_decision");
  });
}

export function buildRulings(box, rulings) {
  rulings.forEach(function (ruling) {
    if (ruling.director && !isDirector) {
      return;
    }
    var button = el("button", { type: "button", "data-kind": ruling.kind, "data-testid": "ruling-" + ruling.kind }, buttonText(ruling));
    button.addEventListener("click", function () {
      var sheet = button.closest("dialog");
      if (sheet && sheet.open) {
        sheet.close();
      }
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
  var chosen = preset.side || (mode === "claimant" && desk.state ? desk.state.side_to_move : "");
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

export function openRuling(kind, preset) {
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
  $("ruling-dialog-context").textContent = "Game " + gameId + (desk.state ? " · " + (desk.state.black || {}).name + " (Black) v " +
    (desk.state.white || {}).name + " (White) · after ply " + desk.state.ply + (desk.state.status === "finished" ? " · finished" :
    " · " + cap(desk.state.side_to_move) + " to move") : "");
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

/* Wires the dialog's Cancel and Confirm. */
export function setupRulings() {
  $("rulings-menu").addEventListener("click", function () {
    $("rulings-sheet").showModal();
  });
  $("rulings-close").addEventListener("click", function () {
    $("rulings-sheet").close();
  });
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
        box.textContent = error.message;
        box.hidden = false;
        if (answer.status === 409) {
          loadState();
        }
      })
      .catch(function (failure) {
        $("ruling-confirm").disabled = false;
        var box = $("ruling-error");
        /* A ruling is not kept for later, as moves are: it is judged on the state the server has. */
        box.textContent = "The server could not be reached (" + failure + "): the ruling is not recorded. " +
          "Rulings are not kept to be sent later; confirm it again when the connection returns.";
        box.hidden = false;
      });
  });
}
