/*
 * The state of the game in words: the banner, the state panel (the side to move, cautions,
 * warnings, the 40-move count, repetition, result and termination), the open choices and the
 * constraints on the next move.
 */
import { cap, resultWords } from "../common.js";
import { $, el, termWords } from "./page.js";
import { openRuling } from "./rulings.js";
import { desk } from "./state.js";

export function renderStatus() {
  var finished = desk.state.status === "finished";
  var banner = $("game-status");
  if (finished) {
    banner.textContent = "Game over: " + resultWords(desk.state.result) + " · " + termWords(desk.state.termination);
  } else {
    banner.textContent = cap(desk.state.side_to_move) + " to move · " + desk.state.ply + " plies recorded" +
      (desk.state.status && desk.state.status !== "in_progress" ? " · " + desk.state.status.replace(/_/g, " ") : "");
  }
  $("side-to-move").textContent = finished ? "—" : cap(desk.state.side_to_move);
  $("ply").textContent = String(desk.state.ply);
  var cautions = desk.state.cautions || {};
  $("cautions").textContent = "Black " + (cautions.black || 0) + " · White " + (cautions.white || 0);
  var warnings = desk.state.warnings || {};
  var conduct = warnings.conduct || {};
  var room = warnings.left_room || {};
  $("warnings").textContent = "conduct: Black " + (conduct.black || 0) + ", White " + (conduct.white || 0) +
    " · left room: Black " + (room.black || 0) + ", White " + (room.white || 0);
  var forty = desk.state.forty_move || {};
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
  var repetition = desk.state.repetition || {};
  $("repetition").textContent = repetition.threshold
    ? "position seen " + (repetition.current || 1) + " time(s); draw at " + repetition.threshold
    : "off" + (repetition.current ? " (position seen " + repetition.current + " time(s))" : "");
  $("result").textContent = resultWords(desk.state.result);
  var termination = $("termination");
  termination.innerHTML = "";
  if (desk.state.termination) {
    termination.appendChild(document.createTextNode(termWords(desk.state.termination) + " "));
    termination.appendChild(el("code", { class: "term" }, desk.state.termination));
  } else {
    termination.textContent = "—";
  }
}

/* ---- open choices and constraints ---- */

export function renderChoices() {
  var box = $("choices");
  box.innerHTML = "";
  var choices = desk.state.open_choices || [];
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

export function renderConstraints() {
  var box = $("constraints");
  box.innerHTML = "";
  var constraints = desk.state.constraints || [];
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
