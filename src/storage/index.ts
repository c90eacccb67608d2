/** Public surface of the storage layer: the flash interface, the slot log and the NOR simulator. */
export * from "./flash";
export * from "./regionLayout";
export * from "./slotLog";
export * from "./norFlashSim";
