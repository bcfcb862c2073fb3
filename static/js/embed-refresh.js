// An embed without push (the league table): reads its own page again every `data-refresh` seconds and
// swaps in the fresh content, without reloading the frame (no flash, the scroll position kept).
const root = document.querySelector("[data-refresh]");
if (root) {
  const seconds = Math.max(30, Number(root.dataset.refresh) || 300);
  setInterval(async () => {
    try {
      const response = await fetch(window.location.href, { cache: "no-store", credentials: "omit" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html")
        .querySelector("[data-refresh]");
      if (fresh) root.replaceChildren(...Array.from(fresh.childNodes, (node) => document.importNode(node, true)));
    } catch {
      // offline for a moment: the next turn tries again
    }
  }, seconds * 1000);
}
