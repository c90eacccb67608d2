/**
 * The status line a board without a panel prints at every change and save (firmware/report.ts
 * statusLine) reads the name tables in place and writes out u64ToDecimal's shortcut below 2^53,
 * calling activityName, expressionName and u64ToDecimal only beyond them: held here to the line
 * those functions make, over random worlds with counts on both sides of 2^53 and activity and
 * expression numbers the tables lack.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validWorld, clockBig, fromBig } from "./core-arbitraries";
import { statusLine } from "../firmware/report";
import { activityName, expressionName } from "../src/save/payloadJson";
import { nameForDisplay } from "../src/core/name";
import { u64ToDecimal } from "../src/core/u64";

/** The line as the functions the status line writes out make it. */
function byTheFunctions(w: Parameters<typeof statusLine>[0], note: string): string {
  return nameForDisplay(w.name) + ": " + activityName(w.activity) + ", " + expressionName(w.expression) + ", updates " + u64ToDecimal(w.updateCount) + (note === "" ? "" : ", " + note);
}

describe("statusLine agrees with the functions it writes out", () => {
  it("gives the names and the count as activityName, expressionName and u64ToDecimal do", () => {
    let beyond = 0;
    fc.assert(
      fc.property(validWorld, clockBig, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.constantFrom("", "saved", "save failed: x"), (world, count, activity, expression, note) => {
        const w = { ...world, activity, expression, updateCount: fromBig(count) };
        if (count >= 2n ** 53n) beyond++;
        expect(statusLine(w, note)).toBe(byTheFunctions(w, note));
        expect(statusLine(w, note, "Pip")).toBe(byTheFunctions(w, note).replace(nameForDisplay(w.name) + ": ", "Pip: "));
      }),
      { numRuns: 300 },
    );
    expect(beyond).toBeGreaterThan(0); // the calls beyond the shortcut ran too
  });
});
