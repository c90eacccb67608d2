/** Small DOM helpers: elements by id with their type checked, so a missing id fails loudly at start. */
export function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error("page: #" + id + " is missing or not a " + type.name);
  return el;
}

/**
 * Hands `take` the files picked in a file input and leaves them shown there, so the page says what
 * was picked. The choice is cleared only as the chooser opens, so picking the same file again
 * still counts.
 */
export function onFilesPicked(input: HTMLInputElement, take: (files: File[]) => void): void {
  input.addEventListener("click", () => (input.value = ""));
  input.addEventListener("change", () => {
    const files = Array.from(input.files || []);
    if (files.length > 0) take(files);
  });
}

/** Shows files dropped on the page in the file input of the place they went to, as if picked there. */
export function showPicked(input: HTMLInputElement, files: File[]): void {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  input.files = dt.files;
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
