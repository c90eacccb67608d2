/**
 * The terminal picture: the OLED as the panel shows it (Unicode braille, 2x4 pixels per character,
 * so 128x64 fits in 64x16 and the whole screen fits an 80x24 terminal; or half blocks, 1x2 pixels
 * per character, for terminals whose font draws braille badly), and below it the pet's name, world
 * clock, update count, last save and the keys.
 *
 * Redrawn in place: cursor home, each line followed by "clear to end of line", then "clear to end of
 * screen", so nothing flickers and a shorter screen leaves no leftovers.
 *
 * A terminal too small for the picture gets one that fits (braille instead of --blocks' half blocks)
 * or, when not even braille fits, a line saying how many columns and rows the picture needs, above
 * the status lines: never a picture cut in half.
 */
import { OLED_HEIGHT, OLED_WIDTH, type Ssd1306 } from "../../emulator/ssd1306";

export type PixelStyle = "braille" | "blocks";

/** The panel as text lines, without a frame. */
export function panelLines(panel: Ssd1306, style: PixelStyle): string[] {
  const lines: string[] = [];
  if (style === "blocks") {
    for (let y = 0; y < OLED_HEIGHT; y += 2) {
      let line = "";
      for (let x = 0; x < OLED_WIDTH; x++) {
        const top = panel.visiblePixel(x, y);
        const bottom = panel.visiblePixel(x, y + 1);
        line += top ? (bottom ? "█" : "▀") : bottom ? "▄" : " ";
      }
      lines.push(line);
    }
    return lines;
  }
  // Braille dot numbering: left column dots 1,2,3,7 and right column 4,5,6,8 (bits 0..7).
  const BIT = [
    [0x01, 0x08],
    [0x02, 0x10],
    [0x04, 0x20],
    [0x40, 0x80],
  ];
  for (let y = 0; y < OLED_HEIGHT; y += 4) {
    let line = "";
    for (let x = 0; x < OLED_WIDTH; x += 2) {
      let bits = 0;
      for (let dy = 0; dy < 4; dy++) {
        const row = BIT[dy] as number[];
        if (panel.visiblePixel(x, y + dy)) bits |= row[0] as number;
        if (panel.visiblePixel(x + 1, y + dy)) bits |= row[1] as number;
      }
      line += String.fromCharCode(0x2800 + bits);
    }
    lines.push(line);
  }
  return lines;
}

/** What the lines under the panel show. */
export interface ScreenInfo {
  name: string;
  activity: string;
  expression: string;
  /** World clock in ms (a decimal string, as pet.status() gives it). */
  elapsedMs: string;
  updateCount: string;
  /** "never" or e.g. "15:20:01, updates 57". */
  lastSave: string;
  led: boolean;
  speed: number;
  imagePath: string;
  /** The firmware's last console lines (most recent last). */
  console: string[];
  /** A question waiting for y/n, or "". */
  prompt: string;
}

/** "2d 03:04:05" for a millisecond count given as a decimal string. */
export function formatWorldClock(elapsedMs: string): string {
  const ms = Number(elapsedMs);
  if (!Number.isFinite(ms)) return elapsedMs + " ms";
  const total = Math.floor(ms / 1000);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number): string => (n < 10 ? "0" : "") + n;
  return (d > 0 ? d + "d " : "") + two(h) + ":" + two(m) + ":" + two(s);
}

export const KEY_HELP = "space interact · h held 5 s: long press · H hatch · s save · q quit";

/** The whole screen as lines (no escape codes): framed panel, status lines, keys, console tail. */
export function screenLines(panel: Ssd1306, info: ScreenInfo, style: PixelStyle): string[] {
  const body = panelLines(panel, style);
  const width = body.length > 0 ? (body[0] as string).length : 0;
  const out: string[] = [];
  out.push("┌" + "─".repeat(width) + "┐");
  for (const l of body) out.push("│" + l + "│");
  out.push("└" + "─".repeat(width) + "┘");
  return out.concat(statusLines(info));
}

/** The framed picture's size in a style: [columns, rows]. */
export function pictureSize(style: PixelStyle): [number, number] {
  return style === "blocks" ? [OLED_WIDTH + 2, OLED_HEIGHT / 2 + 2] : [OLED_WIDTH / 2 + 2, OLED_HEIGHT / 4 + 2];
}

/** Lines under the picture that must show for the screen to be any use: name and activity, clock, keys. */
const STATUS_ROWS = 3;

/**
 * screenLines for a terminal of `columns` x `rows` (0: unknown, draw as asked): the asked style when
 * it fits, braille when only that fits, else a line saying what size the picture needs and the
 * status lines without it.
 */
export function fittingScreenLines(panel: Ssd1306, info: ScreenInfo, style: PixelStyle, columns: number, rows: number): string[] {
  const fits = (s: PixelStyle): boolean => {
    const [c, r] = pictureSize(s);
    return (columns <= 0 || c <= columns) && (rows <= 0 || r + STATUS_ROWS <= rows);
  };
  if (fits(style)) return screenLines(panel, info, style);
  if (style === "blocks" && fits("braille")) {
    const [c, r] = pictureSize("blocks");
    return screenLines(panel, info, "braille").concat([" (--blocks needs " + c + " x " + (r + STATUS_ROWS) + ": drawn in braille)"]);
  }
  const [c, r] = pictureSize("braille");
  const needed =
    "Too small: the picture needs " + c + " columns x " + (r + STATUS_ROWS) + " rows (this terminal is " + columns + " x " + rows +
    "); make it larger, or use --lines.";
  return wrapWords(needed, columns - 1).map((l) => " " + l).concat(statusLines(info));
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word is cut). */
export function wrapWords(text: string, width: number): string[] {
  if (width <= 0) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line === "" ? word : line + " " + word;
    if (Array.from(next).length <= width) line = next;
    else {
      if (line !== "") lines.push(line);
      line = Array.from(word).length > width ? Array.from(word).slice(0, width).join("") : word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The status lines under the picture: name and activity, clock and saves, keys or a question, console tail. */
function statusLines(info: ScreenInfo): string[] {
  const out: string[] = [];
  out.push(
    " " + info.name + " · " + info.activity + ", " + info.expression + "   LED " + (info.led ? "●" : "○") +
      (info.speed !== 1 ? "   speed x" + info.speed : ""),
  );
  out.push(" world clock " + formatWorldClock(info.elapsedMs) + "   updates " + info.updateCount + "   last save " + info.lastSave);
  out.push(info.prompt !== "" ? " " + info.prompt : " " + KEY_HELP);
  for (const c of info.console) out.push(" > " + c);
  return out;
}

/**
 * Escape codes that redraw `lines` in place. Lines are cut to the terminal's width and the list to
 * its height (console lines go first), because a wrapped or scrolled line would shift every later
 * redraw.
 */
export function redrawSequence(lines: string[], columns = 0, rows = 0): string {
  let shown = rows > 0 ? lines.slice(0, rows) : lines;
  if (columns > 0) shown = shown.map((l) => (Array.from(l).length > columns ? Array.from(l).slice(0, columns).join("") : l));
  return "\x1b[H" + shown.map((l) => l + "\x1b[K").join("\r\n") + "\x1b[J";
}
