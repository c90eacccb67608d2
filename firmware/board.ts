/**
 * The board the firmware runs on, as the build hands it over: the board profile's fields the firmware
 * reads, plus what the build derives for the device (src/boards/boardProfile.ts, BundledProfile: one
 * declaration of the board's shape, boards/schema.json held to it by a test). Tests build one with
 * test/firmware-fakes.ts testBoard.
 *
 * What the firmware does with each: petRegion and petLayout are the slot log's region (store.ts); the
 * button (activeLow: pressed reads 0, like the ESP32's BOOT, D0) and the LED (driven high to light,
 * the DevKit's D2) are buttonAndLed.ts's; the display is display.ts's; storageSize makes the boot
 * check the region against the board before any flash access (runningPet.ts); defaultPetName, or
 * its bytes when the build gave them, names a new pet.
 */
import type { BundledProfile } from "../src/boards/boardProfile";

export type PetBoard = BundledProfile;
