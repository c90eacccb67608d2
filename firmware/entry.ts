/**
 * The firmware's entry point: the board profile chosen at build time, the interpreter's globals as
 * capabilities, and the pet. Everything else starts in app.ts (testable in Node with fake capabilities).
 */
import board from "virtual:board-profile";
import { espruinoEnv } from "../src/host/espruino/env";
import { startPet } from "./app";

startPet(board, espruinoEnv());
