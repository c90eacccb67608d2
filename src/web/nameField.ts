/**
 * The name box with Rename and Hatch, the same in the Simulator tab and in the Device tab's live pet:
 * the name is judged as it is typed by the firmware's own rule (isValidName: 1 to 31 bytes of UTF-8,
 * no zero byte), and a name the rule refuses says why and cannot be sent. Where the panel's font
 * lacks some of its letters, the box says how the board's screen will show it, from the firmware's
 * own nameForDisplay ("Zoë" is shown "Zoe"), while the name itself is kept as typed. Rename calls
 * pet.rename; Hatch asks first, keeps a backup of the region, then calls pet.hatch with the name in
 * the box (empty: the profile's default name). An answer other than "ok" is shown with what it means.
 */
import { nameForDisplay, utf8Encode } from "../core/name";
import { NAME_MAX_BYTES } from "../core/types";
import { isValidName } from "../core/world";
import { describeStatus, type LoadStatus } from "../save/status";
import { byId } from "./dom";

/** "pet.rename() answered "bad-name": the name length is not 1 to 31…" for an answer that is not "ok". */
export function answerText(method: string, answer: string): string {
  const known = describeStatus(answer as LoadStatus);
  const meaning = known.startsWith("unknown status") ? "" : known;
  return "pet." + method + "() answered " + JSON.stringify(answer) + (meaning && answer !== "ok" ? ": " + meaning : "");
}

export interface NameVerdict {
  /** The name may be sent (the rule takes it). */
  ok: boolean;
  /** Why the rule refuses it, or what the screen will show of it, or null when there is nothing to say. */
  note: string | null;
}

/** The rule's verdict on a typed name, in words. */
export function judgeName(text: string): NameVerdict {
  if (text === "") return { ok: false, note: null };
  const bytes = utf8Encode(text);
  if (bytes.length > NAME_MAX_BYTES) {
    return {
      ok: false,
      note: "Too long: this name is " + bytes.length + " bytes of UTF-8, and a name is at most " + NAME_MAX_BYTES + " (an accented letter takes 2 bytes, an emoji 4).",
    };
  }
  if (!isValidName(bytes)) return { ok: false, note: "A name cannot hold the character U+0000." };
  const shown = nameForDisplay(bytes);
  if (shown === text) return { ok: true, note: null };
  const lacking = Array.from(new Set(Array.from(text).filter((ch) => nameForDisplay(utf8Encode(ch)) !== ch))).map((ch) => "“" + ch + "”");
  const listed = lacking.length > 1 ? lacking.slice(0, -1).join(", ") + " or " + lacking[lacking.length - 1] : lacking.join("");
  return {
    ok: true,
    note:
      "The board's screen has no " + listed + ": it shows this name as “" + shown + "”. " +
      "The name itself is kept as typed (pet.status() and the backups have it).",
  };
}

export interface NameFieldHooks {
  /** pet.rename / pet.hatch; the answer, or null when the call failed (the hook said why). */
  call(method: "rename" | "hatch", args: string[]): Promise<string | null>;
  /** Keeps a backup of the region before a hatch; the sentence saying so. Throws when it cannot. */
  backUp(reason: string): Promise<string>;
  /** The pet's name now, for the question asked before hatching. */
  petName(): string;
  /** "the board" or "the simulator", for the question. */
  where: string;
  say(text: string, bad?: boolean): void;
}

/** Wires the box `<prefix>-name`, its note `<prefix>-name-note`, and the buttons `<prefix>-rename` and `<prefix>-hatch`. */
export function wireNameField(prefix: string, defaultName: string, h: NameFieldHooks): { enable(on: boolean): void } {
  const input = byId(prefix + "-name", HTMLInputElement);
  const note = byId(prefix + "-name-note", HTMLParagraphElement);
  const renameBtn = byId(prefix + "-rename", HTMLButtonElement);
  const hatchBtn = byId(prefix + "-hatch", HTMLButtonElement);
  const help = "1 to " + NAME_MAX_BYTES + " bytes of UTF-8. Hatch with the box empty names the new pet " + defaultName + ".";
  let enabled = false;
  let verdict = judgeName("");

  function update(): void {
    verdict = judgeName(input.value);
    note.textContent = verdict.note ?? help;
    note.classList.toggle("rejected", !verdict.ok && verdict.note !== null);
    note.dataset.verdict = input.value === "" ? "empty" : verdict.ok ? (verdict.note === null ? "ok" : "shown-otherwise") : "refused";
    input.setAttribute("aria-invalid", String(!verdict.ok && input.value !== ""));
    input.disabled = !enabled;
    renameBtn.disabled = !enabled || !verdict.ok;
    hatchBtn.disabled = !enabled || (input.value !== "" && !verdict.ok);
  }
  input.addEventListener("input", update);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !renameBtn.disabled) renameBtn.click();
  });

  renameBtn.addEventListener("click", async () => {
    const name = input.value;
    if (!judgeName(name).ok) return;
    const r = await h.call("rename", [name]);
    if (r === null) return;
    h.say(answerText("rename", r), r !== "ok");
    if (r === "ok") input.value = "";
    update();
  });
  hatchBtn.addEventListener("click", async () => {
    const name = input.value;
    if (name !== "" && !judgeName(name).ok) return;
    const called = name === "" ? defaultName : name;
    if (!confirm("Hatch a new pet called " + called + " on " + h.where + "? " + h.petName() + " is replaced (a backup of the region is kept first, under Backups).")) {
      return h.say("Nothing hatched.");
    }
    try {
      h.say(await h.backUp("before hatching"));
    } catch (e) {
      return h.say("Could not back up the region first (" + (e instanceof Error ? e.message : String(e)) + "); nothing hatched.", true);
    }
    const r = await h.call("hatch", name === "" ? [] : [name]);
    if (r === null) return;
    h.say(answerText("hatch", r), r !== "ok");
    if (r === "ok") input.value = "";
    update();
  });

  update();
  return {
    enable(on) {
      enabled = on;
      update();
    },
  };
}
