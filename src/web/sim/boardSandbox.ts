/**
 * Where the simulated board runs: a Worker started inside an iframe sandboxed with `allow-scripts`
 * only. Without `allow-same-origin` the iframe's origin is opaque, and so is that of the Worker it
 * starts (from a Blob URL it makes itself), so nothing the board runs (the firmware, a line typed
 * at its console, a snippet pasted from the web) can open the page's IndexedDB (the pet's flash,
 * the backups), its Cache Storage (the offline copy), its localStorage, or reach the page's
 * BroadcastChannel: a real board cannot touch the page either. It holds in Chromium and Firefox
 * alike (a Worker from a data: URL would not: older Chromium gave it the page's origin).
 *
 * The board is given one MessagePort and nothing else: the page sends the iframe the worker's
 * script with the port, the iframe starts the Worker and hands the port on, and takes nothing back
 * but the Worker's uncaught errors, which it passes up as text. The iframe is the page's own
 * srcdoc and runs nothing of the board's. Ending the sandbox (a power cut, the watchdog) removes the
 * iframe, which ends its Worker wherever it stands.
 */

/** The iframe's whole script: take the script and the port once, from the page only. */
const FRAME_SCRIPT =
  "onmessage=function(e){if(e.source!==parent||typeof e.data!=='string'||!e.ports[0])return;onmessage=null;" +
  "var w=new Worker(URL.createObjectURL(new Blob([e.data],{type:'text/javascript'})),{name:'simulated board'});" +
  "w.onerror=function(x){x.preventDefault();parent.postMessage(String(x.message),'*')};w.postMessage(0,[e.ports[0]])}";

export interface BoardSandbox {
  /** The page's end of the board's one channel. */
  port: MessagePort;
  /** Ends the board wherever it is: the iframe goes, and its Worker with it. */
  end(): void;
}

/** Starts `script` as the board; `uncaught` hears the Worker's uncaught errors (the board's words). */
export function startBoardSandbox(script: string, uncaught: (text: unknown) => void): BoardSandbox {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.hidden = true;
  frame.title = "the simulated board";
  frame.srcdoc = "<!doctype html><script>" + FRAME_SCRIPT + "</script>";
  const channel = new MessageChannel();
  const onError = (e: MessageEvent): void => {
    if (e.source === frame.contentWindow && e.source !== null) uncaught(e.data);
  };
  // An opaque origin has no name to address it by: "*", to the iframe this page just made.
  frame.addEventListener("load", () => frame.contentWindow?.postMessage(script, "*", [channel.port2]), { once: true });
  addEventListener("message", onError);
  document.body.appendChild(frame);
  return {
    port: channel.port1,
    end() {
      removeEventListener("message", onError);
      channel.port1.onmessage = null;
      channel.port1.close();
      frame.remove();
    },
  };
}
