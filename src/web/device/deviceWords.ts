/**
 * The Device tab's longer sentences, where the words matter most: why the page cannot talk to a board
 * here (a page that is not secure, or a browser without Web Serial, each saying what to do instead),
 * and what to check when no port was chosen.
 */
export const NO_PORT =
  "No port chosen. If your board is not in the list: use a USB cable that carries data (many charging cables do not), try another USB socket, " +
  "and install the driver for the board's USB-serial chip if your system needs one (CP210x or CH340: the small chip near the USB socket says which); then connect again.";

/** Why this page cannot talk to a board, or null when it can. */
export function serialMissing(serial: unknown): string | null {
  if (!window.isSecureContext) {
    return (
      "This page was opened over plain http (" + location.host + "), and browsers allow Web Serial only on secure pages: https, or " +
      "http://localhost on the computer the board is plugged into. Run “npm run web” on that computer and open the address it prints there " +
      "(or serve the page over https). The Simulator, Backups and Check a file work here."
    );
  }
  if (!serial) {
    return (
      "This browser has no Web Serial, so it cannot talk to a board. Use a desktop Chrome, Edge or Opera (version 89 or later) for this tab, " +
      "or “npm run upload” from a copy of the repository. The Simulator, Backups and Check a file work here."
    );
  }
  return null;
}

