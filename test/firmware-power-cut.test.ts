/**
 * A power cut at any point of a save: the next boot restores either the save before it or the one
 * being written, never a hatch and never a mixture. Uses the storage engineer's NorFlashSim tears.
 */
import { describe, expect, it } from "vitest";
import { bootPet, newFlash } from "./firmware-fakes";
import type { WriteTear, EraseTear } from "../src/storage/norFlashSim";

const WRITE_TEARS: WriteTear[] = ["none", "all", "prefix", "words", "bits"];
const ERASE_TEARS: EraseTear[] = ["none", "prefix", "words", "random"];

describe("power cut during a save", () => {
  // 46 extra saves put the cut save at the last slot of the first sector; 47 makes it open the next.
  for (const priorSaves of [0, 46, 47]) {
    it("restores the old or the new pet, after " + priorSaves + " earlier saves", () => {
      let cases = 0;
      const seen = { Before: 0, After: 0 };
      for (let k = 0; k < 6; k++) {
        for (let t = 0; t < WRITE_TEARS.length; t++) {
          const sim = newFlash(1 + k * 10 + t);
          const { env, app } = bootPet({ sim });
          for (let i = 0; i < priorSaves; i++) {
            env.advance(100);
            expect(app.pet.save()).toBe("ok");
          }
          env.advance(2500);
          expect(app.pet.rename("Before")).toBe("ok");
          const before = app.pet.status()!;
          env.advance(700);
          sim.cutPowerAfter({
            afterMutations: k,
            writeTear: WRITE_TEARS[t],
            eraseTear: ERASE_TEARS[t % ERASE_TEARS.length],
          });
          app.pet.rename("After");
          const after = app.pet.status()!;
          app.stop();

          sim.powerOn();
          const { env: env2, app: app2 } = bootPet({ sim });
          expect(env2.lines.length).toBe(1);
          expect(env2.lines[0]).toMatch(/^restored (Before|After), updates \d+$/);
          const restored = app2.pet.status()!;
          const expected = restored.name === "Before" ? before : after;
          seen[restored.name as "Before" | "After"]++;
          expect({ ...restored, savedAtMs: "x" }).toEqual({ ...expected, savedAtMs: "x" });
          cases++;
        }
      }
      expect(cases).toBe(30);
      // Both outcomes happen: cuts before the commit keep the old pet, later ones the new.
      expect(seen.Before).toBeGreaterThan(0);
      expect(seen.After).toBeGreaterThan(0);
    });
  }

  it("a cut during an automatic save in the loop also restores a whole pet", () => {
    for (let k = 0; k < 4; k++) {
      const sim = newFlash(99 + k);
      const env = bootPet({ sim }).env;
      env.advance(15000);
      sim.cutPowerAfter({ afterMutations: k, writeTear: "words", eraseTear: "random" });
      env.advance(200000); // activity changes try to save; the power is gone
      sim.powerOn();
      const env2 = bootPet({ sim }).env;
      expect(env2.lines[0]).toMatch(/^restored Pip, updates \d+$/);
    }
  });
});
