/*
 * The console's page: the game it is for, its elements, and the alert and notice messages.
 */
import { gameUrl, readJson } from "../common.js";

const root = document.getElementById("console");

/* Whether this page is the console (the modules have nothing to do elsewhere). */
export const present = Boolean(root);
export const gameId = root ? root.getAttribute("data-game-id") : null;
export const isDirector = Boolean(root) && root.getAttribute("data-director") === "true";
/* The game's API address: GET the state, POST moves/ and rulings/, GET log/ and log/verify. */
export const api = gameUrl(gameId);
const terminations = readJson("terminations") || {};

/* The element of an id. */
export function $(id) {
  return document.getElementById(id);
}

/* A new element with attributes and text. */
export function el(tag, attrs, text) {
  var element = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    element.setAttribute(key, attrs[key]);
  });
  if (text !== undefined && text !== null) {
    element.textContent = String(text);
  }
  return element;
}

export function other(side) {
  return side === "black" ? "white" : "black";
}

/* A termination in words, as the server names it (its code otherwise). */
export function termWords(code) {
  if (!code) {
    return "—";
  }
  return terminations[code] || code.replace(/_/g, " ");
}

/* ---- messages ---- */

export function showAlert(message, extra) {
  var box = $("alert");
  box.innerHTML = "";
  box.appendChild(el("strong", { "data-testid": "alert-message" }, message));
  if (extra) {
    box.appendChild(extra);
  }
  box.hidden = false;
  $("notice").hidden = true;
}

export function clearAlert() {
  var box = $("alert");
  box.hidden = true;
  box.innerHTML = "";
}

export function showNotice(message) {
  var box = $("notice");
  box.textContent = message;
  box.hidden = false;
  clearAlert();
}
