/**
 * A save's outcome is a value (status and the storage's words, firmware/store.ts SaveOutcome), and
 * the console's text for it is made in one place (firmware/report.ts saveOutcomeText): the words
 * pet.save() has always answered, for every kind of outcome. Nothing parses them back: the running
 * pet asks the outcome's status (test/firmware-save-commit-unknown.test.ts drives that through a
 * failing mark).
 */
import { describe, expect, it } from "vitest";
import { saveOutcomeText } from "../firmware/report";
import { STORAGE_ERROR } from "../firmware/store";
import { bootPet } from "./firmware-fakes";

describe("a save's outcome as the console says it", () => {
  it("is the status alone when nothing more was said, with the storage's words in brackets when it said why", () => {
    expect(saveOutcomeText({ status: "paused", message: "" })).toBe("paused");
    expect(saveOutcomeText({ status: "bad-name", message: "" })).toBe("bad-name");
    expect(saveOutcomeText({ status: "region-not-free", message: "" })).toBe("region-not-free");
    expect(saveOutcomeText({ status: "verify-failed", message: "the payload did not program (the write had no effect)" })).toBe(
      "verify-failed (the payload did not program (the write had no effect))",
    );
    expect(saveOutcomeText({ status: STORAGE_ERROR, message: "Error: boom" })).toBe("storage-error Error: boom");
  });

  it("is what pet.save() answers, and the status line says, for a failed write", () => {
    const { env, app, sim } = bootPet();
    sim.injectFailure({ op: "write", mode: "silent" }); // every write, so the retries fail too
    const answer = app.pet.save();
    expect(answer).toMatch(/^verify-failed \(the payload did not program/);
    expect(env.lines[env.lines.length - 1]).toContain("save failed: " + answer);
  });
});
