/*
 * The console kept for a reload without network: registers the console's service worker
 * (/games/console-worker.js, scope /games/) and keeps, in its cache, this console page and the
 * static files it loaded, so that the page opens again, and reloads, while the hall's network is
 * down. The moves entered meanwhile are in the outbox (outbox.js) and the game's last state read
 * is in localStorage (state.js): the page kept shows them, and sends the moves when it can.
 *
 * Once the page is kept, #console gets data-offline-ready="true" and the line #offline-ready
 * says so. A browser without service workers (or a page not served over HTTPS, but for
 * localhost) keeps working online as before: only the reload offline is missing.
 */
import { $ } from "./page.js";

const CACHE = "draughts-console"; // the worker's (templates/games/console-worker.js)
const PAGES_KEPT = 40; // the consoles kept, the most recent first; older ones are dropped

function sameOrigin(url) {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch (error) {
    return false;
  }
}

/* The static files this page loaded (its scripts, modules and styles), by address. */
function loadedAssets(prefix) {
  var seen = {};
  var urls = [];
  var entries = window.performance && performance.getEntriesByType ? performance.getEntriesByType("resource") : [];
  entries.forEach(function (entry) {
    var url = new URL(entry.name, window.location.href);
    var address = url.origin + url.pathname;
    if (sameOrigin(address) && url.pathname.indexOf(prefix) === 0 && !seen[address]) {
      seen[address] = true;
      urls.push(address);
    }
  });
  return urls;
}

/*
 * Puts this page and its static files in the cache (those already there are not fetched again),
 * drops the static files of an earlier release (every console loads the same ones) and the
 * oldest pages beyond PAGES_KEPT.
 */
function keep(cache, prefix) {
  var page = window.location.origin + window.location.pathname;
  var assets = loadedAssets(prefix);
  var wanted = {};
  assets.forEach(function (url) {
    wanted[url] = true;
  });
  var missing = function (url) {
    return cache.match(url).then(function (hit) {
      return hit ? null : cache.add(url);
    });
  };
  return Promise.all(assets.concat([page]).map(missing)).then(function () {
    return cache.keys();
  }).then(function (requests) {
    var pages = [];
    var stale = [];
    requests.forEach(function (request) {
      var path = new URL(request.url).pathname;
      if (path.indexOf(prefix) === 0) {
        if (!wanted[request.url]) {
          stale.push(request);
        }
      } else if (request.url !== page) {
        pages.push(request);
      }
    });
    /* keys() lists in the order kept: the oldest first; this page was just (re)kept */
    stale = stale.concat(pages.slice(0, Math.max(0, pages.length - (PAGES_KEPT - 1))));
    return Promise.all(stale.map(function (request) {
      return cache.delete(request);
    }));
  });
}

/* Registers the worker and keeps this console for a reload offline (see the top of the file). */
export function setupOffline() {
  var root = $("console");
  var worker = root.getAttribute("data-worker");
  var prefix = root.getAttribute("data-static") || "/static/";
  if (!worker || !("serviceWorker" in navigator) || !window.caches) {
    return;
  }
  navigator.serviceWorker.register(worker, { scope: new URL(".", new URL(worker, window.location.href)).pathname })
    .then(function () {
      return navigator.serviceWorker.ready;
    })
    .then(function () {
      return caches.open(CACHE);
    })
    .then(function (cache) {
      return keep(cache, new URL(prefix, window.location.href).pathname);
    })
    .then(function () {
      root.setAttribute("data-offline-ready", "true");
      $("offline-ready").hidden = false;
    })
    .catch(function () {
      /* offline for the first visit, storage refused, ...: the console works online as before */
    });
}
