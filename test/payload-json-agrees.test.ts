/**
 * payloadJson (pet.status() and `pet-save decode --json`) writes out u64ToDecimal's shortcut below
 * 2^53 and reads the name tables in place, calling u64ToDecimal, activityName and expressionName
 * only where the shortcut does not apply: held here to those functions over random worlds, with
 * halves on both sides of 2^53 and activity and expression numbers the tables lack.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validWorld, clockBig, fromBig } from "./core-arbitraries";
import { activityName, expressionName, payloadJson } from "../src/save/payloadJson";
import { u64ToDecimal } from "../src/core/u64";

describe("payloadJson agrees with the functions it writes out", () => {
  it("gives every decimal as u64ToDecimal does and every name as activityName and expressionName do", () => {
    fc.assert(
      fc.property(validWorld, clockBig, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), (world, stamp, activity, expression) => {
        const w = { ...world, activity, expression };
        const savedAt = fromBig(stamp);
        const j = payloadJson(w, savedAt);
        expect(j.elapsedMs).toBe(u64ToDecimal(w.elapsed));
        expect(j.updateCount).toBe(u64ToDecimal(w.updateCount));
        expect(j.savedAtMs).toBe(u64ToDecimal(savedAt));
        expect(j.activitySinceMs).toBe(u64ToDecimal(w.activitySince));
        expect(j.expressionSinceMs).toBe(u64ToDecimal(w.expressionSince));
        expect(j.activityName).toBe(activityName(activity));
        expect(j.expressionName).toBe(expressionName(expression));
      }),
      { numRuns: 300 },
    );
  });
});
