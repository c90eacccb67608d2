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

/** Appends a line to a list, keeping at most `max` and the newest in view. */
export function appendLine(list: HTMLElement, text: string, max = 300): void {
  const li = document.createElement("li");
  li.textContent = text;
  list.appendChild(li);
  while (list.children.length > max) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
}
