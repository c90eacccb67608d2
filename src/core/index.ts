/**
 * The Core's public API in one place: the world record and its vocabulary, u64 arithmetic, names,
 * hex, world creation/validation and the behaviour rules. Other layers (save, storage, firmware,
 * tools) import from here rather than from the individual files.
 */
export * from "./types";
export * from "./u64";
export * from "./name";
export * from "./hex";
export * from "./world";
export * from "./rules";
