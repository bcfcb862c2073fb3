/*
 * On every page shown to a visitor who is not signed in (after signing out, say): deletes the
 * consoles kept for offline use (the cache of the console's service worker,
 * templates/games/console-worker.js), so that a console kept for one referee is never shown,
 * offline, to the next person at this browser. The moves waiting in a console's outbox are not
 * touched: they are sent by the next referee of that game who opens its console here.
 */
if (window.caches) {
  window.caches.delete("draughts-console").catch(function () {});
}
