/**
 * The status line a board without a panel prints at every change and every save the pet makes of its
 * own accord (firmware/report.ts statusLine) reads the name tables in place and writes out u64ToDecimal's shortcut below 2^53,
 * calling activityName, expressionName and u64ToDecimal only beyond them: held here to the line
 * those functions make, over random worlds with counts on both sides of 2^53 and activity and
 * expression numbers the tables lack. And the running pet, which keeps the line's head between
 * changes (RunningPet.refresh_), prints the line statusLine gives for its world.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validWorld, clockBig, fromBig } from "./core-arbitraries";
import { statusLine } from "../firmware/report";
import { activityName, expressionName } from "../src/save/payloadJson";
import { nameForDisplay } from "../src/core/name";
import { u64ToDecimal } from "../src/core/u64";
import { bootPet } from "./firmware-fakes";

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

describe("the running pet's status lines (a board without a panel)", () => {
  it("print, after an interaction, a save, a rename or a hatch, the line statusLine gives for the world then, however the world moved before", () => {
    // The pet keeps the line's head ("Pip: playing, happy") between changes of the name, the
    // activity or the expression; a head kept past such a change would print the old words.
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant({ op: "interact" as const }),
            fc.constant({ op: "save" as const }),
            fc.record({ op: fc.constant("rename" as const), name: fc.constantFrom("Pip", "Zoë", "Bo", "Łucja") }),
            fc.record({ op: fc.constant("hatch" as const), name: fc.constantFrom("Kit", "Ada") }),
            fc.record({ op: fc.constant("wait" as const), ms: fc.integer({ min: 1000, max: 900_000 }) }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        (steps) => {
          const { env, app } = bootPet();
          for (const s of steps) {
            const before = env.lines.length;
            if (s.op === "wait") {
              env.advance(s.ms);
              continue;
            }
            if (s.op === "interact") app.pet.interact();
            else if (s.op === "save") app.pet.save();
            else if (s.op === "rename") app.pet.rename(s.name);
            else app.pet.hatch(s.name);
            const printed = env.lines.slice(before).filter((l) => l.includes(", updates "));
            // pet.save() takes no step, so the picture did not change, and its answer says it saved.
            if (s.op === "save") expect(printed).toEqual([]);
            if (printed.length === 0) continue;
            const w = app.world();
            const last = printed[printed.length - 1];
            expect([statusLine(w, ""), statusLine(w, "saved")]).toContain(last);
            compared++;
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(150);
  });
});
