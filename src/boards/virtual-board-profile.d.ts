/**
 * The board profile chosen at build time (env BOARD, see scripts/lib/build.js), checked with
 * checkBoardProfile and inlined into the bundle by the build's virtual-module plugin, with the slot
 * log's layout for its petRegion added as `petLayout` (deviceLayout in the build) and, for a profile
 * that runs on Espruino, the Storage size the board must report as `storageSize` (deviceStorageCheck).
 */
declare module "virtual:board-profile" {
  const profile: import("./boardProfile").BoardProfile & { petLayout: import("../storage/regionLayout").RegionLayout; storageSize?: number };
  export default profile;
}
