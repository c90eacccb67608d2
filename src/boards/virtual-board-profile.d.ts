/**
 * The board profile chosen at build time (env BOARD, see scripts/lib/build.js), checked with
 * checkBoardProfile and inlined into the bundle by the build's virtual-module plugin.
 */
declare module "virtual:board-profile" {
  const profile: import("./boardProfile").BoardProfile;
  export default profile;
}
