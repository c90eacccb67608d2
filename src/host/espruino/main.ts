/**
 * The bundle's entry point on Espruino: the board profile chosen at build time, the interpreter's
 * globals as capabilities (env.ts), and the pet (firmware/app.ts, which reads no global and so runs
 * in Node's tests and the desktop host too). It lives with the host, not in firmware/, because it is
 * the one place that ties the firmware to this interpreter.
 */
import board from "virtual:board-profile";
import { espruinoEnv } from "./env";
import { startPet } from "../../../firmware/app";

startPet(board, espruinoEnv());
