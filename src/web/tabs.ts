/**
 * The tab strip: a click, the arrow keys (wrapping round), Home (the first tab) or End (the last),
 * as the WAI-ARIA tabs pattern has them, select a tab and show its panel.
 */
export function startTabs(): { select(id: string): void } {
  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>("[role=tab]"));
  function select(id: string): void {
    for (const t of tabs) {
      const on = t.id === id;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute("aria-controls") || "");
      if (panel) panel.hidden = !on;
    }
  }
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => select(t.id));
    t.addEventListener("keydown", (e) => {
      const to =
        e.key === "ArrowRight" ? (i + 1) % tabs.length : e.key === "ArrowLeft" ? (i - 1 + tabs.length) % tabs.length : e.key === "Home" ? 0 : e.key === "End" ? tabs.length - 1 : -1;
      if (to < 0) return;
      e.preventDefault(); // Home and End would scroll the page
      const next = tabs[to] as HTMLButtonElement;
      select(next.id);
      next.focus();
    });
  });
  return { select };
}
