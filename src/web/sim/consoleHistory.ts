/**
 * The console box's history, as in a terminal: Up brings back the line typed before, Down goes
 * forward again and, past the newest, back to what was being typed. Kept for this visit only.
 */
const MAX = 100;

export function wireHistory(input: HTMLInputElement): { add(line: string): void } {
  const lines: string[] = [];
  let at = 0; // lines.length = the line being typed
  let draft = "";
  input.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const next = at + (e.key === "ArrowUp" ? -1 : 1);
    if (next < 0 || next > lines.length) return;
    e.preventDefault();
    if (at === lines.length) draft = input.value;
    at = next;
    input.value = at === lines.length ? draft : (lines[at] as string);
    input.setSelectionRange(input.value.length, input.value.length);
  });
  return {
    add(line) {
      if (lines[lines.length - 1] !== line) lines.push(line);
      if (lines.length > MAX) lines.shift();
      at = lines.length;
      draft = "";
    },
  };
}
