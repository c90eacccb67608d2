/** Small DOM helpers: elements by id with their type checked, so a missing id fails loudly at start. */
export function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error("page: #" + id + " is missing or not a " + type.name);
  return el;
}

/** Offers bytes or text as a file download. */
export function download(name: string, data: Uint8Array | string, mime: string): void {
  const blob = new Blob([data as BlobPart], { type: mime });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/**
 * Appends a line to a console list, keeping at most `max` and the newest in view. A line of the
 * page's own words carries a visible "page:" label of its own element and class "from-page"; the
 * board's lines are its text alone, whatever it says, so the board cannot pass for the page.
 */
export function appendLine(list: HTMLElement, text: string, from: "page" | "board", max = 300): void {
  const li = document.createElement("li");
  li.className = "from-" + from;
  if (from === "page") {
    const label = document.createElement("span");
    label.className = "who";
    label.textContent = "page:";
    li.append(label, " ", text);
  } else li.textContent = text;
  list.appendChild(li);
  while (list.children.length > max) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
}
