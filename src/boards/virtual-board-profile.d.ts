/**
 * The board profile chosen at build time (env BOARD, see scripts/lib/build.js), checked with
 * checkBoardProfile and inlined into the bundle by the build's virtual-module plugin: the keys the
 * firmware reads, with what the build derives for the device added (BundledProfile in
 * boardProfile.ts).
 */
declare module "virtual:board-profile" {
  const profile: import("./boardProfile").BundledProfile;
  export default profile;
}
