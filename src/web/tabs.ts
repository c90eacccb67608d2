/** The tab strip: click or arrow keys (the WAI-ARIA tabs pattern) select a tab and show its panel. */
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
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (step === 0) return;
      const next = tabs[(i + step + tabs.length) % tabs.length] as HTMLButtonElement;
      select(next.id);
      next.focus();
    });
  });
  return { select };
}
