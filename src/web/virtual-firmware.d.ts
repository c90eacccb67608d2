/** Built into the page by scripts/lib/buildWeb.js: the two firmware bundles and their board profiles. */
declare module "virtual:firmware" {
  import type { BoardProfile } from "../boards/boardProfile";
  export const simFirmware: string;
  export const simBoard: BoardProfile;
  export const deviceFirmware: string;
  export const deviceBoard: BoardProfile;
}

/** Built into the page by scripts/lib/buildWeb.js: the simulated board's Worker script, as text. */
declare module "virtual:sim-worker" {
  const workerScript: string;
  export default workerScript;
}
