/*
 * The arbitration log: read again whenever the state says it grew (log_length), shown newest
 * first, and its hash chain verified on request.
 */
import { announce, entryWords, errorOf, moveWords, readJson, request } from "../common.js";
import { $, api, el } from "./page.js";

var lastLogLength = null;
var lastHeard = null; // the last entry said in the live region (none on the first reading: no news yet)
var logKinds = null;

/* Reads the log again when the state's log_length changed (or the state does not say). */
export function followLog(state) {
  if (state.log_length === undefined || state.log_length !== lastLogLength) {
    lastLogLength = state.log_length;
    loadLog();
  }
}

function loadLog() {
  return request("GET", api + "log/").then(function (answer) {
    if (!answer.ok) {
      return;
    }
    var entries = Array.isArray(answer.data) ? answer.data : (answer.data && (answer.data.results || answer.data.entries)) || [];
    renderLog(entries);
    announceNew(entries);
  });
}

/* Says the entries newer than the last one said (a move, a ruling, a clock event) in the live region. */
function announceNew(entries) {
  var newest = entries.reduce(function (top, entry) {
    return Math.max(top, entry.seq);
  }, 0);
  if (lastHeard === null) {
    lastHeard = newest;
    return;
  }
  logKinds = logKinds || readJson("log-kinds") || {};
  entries.filter(function (entry) {
    return entry.seq > lastHeard;
  }).sort(function (a, b) {
    return a.seq - b.seq;
  }).slice(-5).forEach(function (entry) {
    var move = entry.kind === "move" && entry.data ? entry.data.move : null;
    announce(move ? moveWords({ ply: entry.ply, side: entry.side, move: move }) : entryWords(entry, logKinds));
  });
  lastHeard = Math.max(lastHeard, newest);
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
    logKinds = logKinds || readJson("log-kinds") || {};
    // each cell names its column (data-label): on a phone the rows are read as cards (console.css)
    row.appendChild(el("td", { "data-label": "#" }, entry.seq));
    row.appendChild(el("td", { "data-label": "Time", title: entry.created_at || "" },
      when && !isNaN(when) ? when.toLocaleTimeString() : ""));
    row.appendChild(el("td", { "data-label": "Kind", class: "kind" },
      logKinds[entry.kind] || (entry.kind ? entry.kind.replace(/_/g, " ") : "")));
    row.appendChild(el("td", { "data-label": "Side" }, entry.side || ""));
    row.appendChild(el("td", { "data-label": "Law" }, entry.law || ""));
    row.appendChild(el("td", { "data-label": "Ply" }, entry.ply === undefined || entry.ply === null ? "" : entry.ply));
    var note = [entry.note || "", describeData(entry)].filter(Boolean).join(" · ");
    if (entry.supersedes) {
      note += (note ? " · " : "") + "supersedes #" + entry.supersedes;
    }
    row.appendChild(el("td", { "data-label": "Note", class: "note" }, note));
    row.appendChild(el("td", { "data-label": "By" }, entry.actor || "system"));
    body.appendChild(row);
  });
  if (!entries.length) {
    var empty = el("tr");
    empty.appendChild(el("td", { colspan: "8", class: "muted" }, "No entries."));
    body.appendChild(empty);
  }
}

/* Wires the Verify log button. */
export function setupLog() {
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
}
