{% load static %}/*
 * The referee console's service worker (served at /games/console-worker.js by
 * arbitration.views.console_worker; its scope is /games/): a console opened once on this browser
 * opens again, and reloads, when the network is down.
 *
 * It answers two kinds of request of the pages under /games/, and lets every other go by
 * untouched (the API and the live streams are routed past it; other pages; never a POST, never
 * the state):
 * - a console page (/games/<id>/console): from the network; a page that came (200) is kept in the
 *   cache for the next time. When the network fails, a gateway answers 502/503/504, or no answer
 *   came within PAGE_WAIT_MS, the page kept is shown instead, if there is one.
 * - a static file (the console's scripts and styles): from the network, or the copy kept when
 *   the network fails or is slower than ASSET_WAIT_MS. The console page keeps its static files
 *   itself once it has loaded (static/js/console/offline.js).
 *
 * The console kept is the page as it was last loaded; the moves entered since are in the
 * browser's outbox and its last state (localStorage), which the page reads first. Signing out
 * deletes the cache (static/js/site.js), so a console kept is never shown to the next user.
 */
const CACHE = "draughts-console";
const STATIC = "{% get_static_prefix %}";
const CONSOLE = /^\/games\/\d{1,18}\/console$/;
const PAGE_WAIT_MS = 4000;
const ASSET_WAIT_MS = 3000;
const UNREACHABLE = [502, 503, 504];

/*
 * The API and the live streams go straight to the network, never through this worker, where the
 * browser can route them so (the static routing API; elsewhere the fetch handler lets them by).
 */
self.addEventListener("install", function (event) {
  if (event.addRoutes && typeof URLPattern === "function") {
    try {
      event.addRoutes(["/api/*", "/live/*"].map(function (pathname) {
        return { condition: { urlPattern: new URLPattern({ pathname: pathname }) }, source: "network" };
      }));
    } catch (error) {
      /* routing not supported as asked: the fetch handler lets them by */
    }
  }
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

/* The kept copy of a request (by address without its query), or undefined. */
function kept(url) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(url.origin + url.pathname);
  });
}

/*
 * The network's answer, or the kept copy when the network fails, answers from a gateway that the
 * server is down, or is slower than waitMs (and there is a copy). keep(response) is called with a
 * network answer that came.
 */
function networkOrKept(request, url, waitMs, keep) {
  return new Promise(function (resolve) {
    var settled = false;
    var settle = function (response) {
      if (!settled) {
        settled = true;
        resolve(response);
      }
    };
    var fallBack = function (otherwise) {
      return kept(url).then(function (copy) {
        if (copy) {
          settle(copy);
        } else if (otherwise) {
          settle(otherwise);
        }
      }, function () {
        if (otherwise) {
          settle(otherwise);
        }
      });
    };
    var timer = setTimeout(function () {
      fallBack(null);
    }, waitMs);
    fetch(request).then(function (response) {
      clearTimeout(timer);
      if (UNREACHABLE.indexOf(response.status) >= 0) {
        fallBack(response);
        return;
      }
      keep(response);
      settle(response);
    }, function () {
      clearTimeout(timer);
      fallBack(Response.error());
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate" && CONSOLE.test(url.pathname)) {
    event.respondWith(networkOrKept(request, url, PAGE_WAIT_MS, function (response) {
      var key = url.origin + url.pathname;
      if (response.status === 200 && response.type === "basic" && !response.redirected) {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) {
          return cache.put(key, copy);
        }));
      } else if (response.status === 403 || response.status === 404 || response.type === "opaqueredirect") {
        /* no longer this user's console (or signed out): the copy kept goes */
        event.waitUntil(caches.open(CACHE).then(function (cache) {
          return cache.delete(key);
        }));
      }
    }));
  } else if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(networkOrKept(request, url, ASSET_WAIT_MS, function () {}));
  }
});
