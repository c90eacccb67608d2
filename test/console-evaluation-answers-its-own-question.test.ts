/**
 * The console protocol's evaluation (src/boards/consoleProtocol.ts), which board-check, the soak and
 * the interpreter's console all use: a value comes back as it was (undefined included), a throw on
 * the board is an error in its words, and an answer is taken only for its own question: not from
 * the echo of the command, and not from another evaluation's late answer (a probe that timed out
 * and answered after all). A pet call answers "no-pet" on a board without the pet's console.
 */
import { describe, expect, it } from "vitest";
import * as P from "../src/boards/consoleProtocol";
import { vmBoard } from "./console-vm-board";

describe("an evaluation on the board", () => {
  it("answers the expression's value, undefined included, and a throw in the board's words", async () => {
    const board = vmBoard({ pet: { status: () => ({ name: "Zoë", updateCount: "12" }) } });
    expect(await P.evaluate(board.exchange, "pet.status()", "pet.status()", 1000)).toEqual({ name: "Zoë", updateCount: "12" });
    expect(await P.evaluate(board.exchange, "1+1", "a sum", 1000)).toBe(2);
    expect(await P.evaluate(board.exchange, "undefined", "nothing", 1000)).toBeUndefined();
    expect(await P.evaluate(board.exchange, "[1,'a\\nb',null]", "an array", 1000)).toEqual([1, "a\nb", null]);
    await expect(P.evaluate(board.exchange, "pet.save()", "pet.save()", 1000)).rejects.toThrow(/^pet\.save\(\) failed on the board: TypeError: pet\.save is not a function$/);
    // Every line goes out as one console line, its echo turned off.
    expect(board.sent.every((l) => !l.includes("\n"))).toBe(true);
  });

  it("takes no answer from the echo of its command, nor from another evaluation's late answer", async () => {
    const board = vmBoard({ answer: 42 });
    const id = P.evaluationId();
    const line = P.evaluation("answer", id);
    expect(P.parseEvaluation(line, id)).toBeNull(); // the echo holds the tag inside quotes
    expect(P.parseEvaluation(">#pet-v" + id + ' {"v":7}', id)).toEqual({ value: 7 });
    expect(P.parseEvaluation("#pet-v" + id + ' {"v":7}', P.evaluationId())).toBeNull();
    expect(P.evaluationId()).not.toBe(P.evaluationId());
    // An earlier question's answer arrives first (it timed out, then the board got round to it).
    const late = P.evaluationId();
    board.noise.push("#pet-v" + late + ' {"v":"stale"}', P.evaluation("answer", late));
    expect(await P.evaluate(board.exchange, "answer", "the answer", 1000)).toBe(42);
  });

  it("a pet call answers the method's own answer, and no-pet where the board runs no pet console", async () => {
    const imported: string[] = [];
    const withPet = vmBoard({ pet: { importHex: (hex: string) => (imported.push(hex), "ok"), rename: () => "bad-name" } });
    expect(await withPet.exchange(P.petCallCommand("importHex", ["50455453"]), P.parseResult, 1000, "import")).toBe("ok");
    expect(imported).toEqual(["50455453"]);
    expect(await withPet.exchange(P.petCallCommand("rename", ["Zoë"]), P.parseResult, 1000, "rename")).toBe("bad-name");
    expect(await withPet.exchange(P.petCallCommand("hatch", ["Rex"]), P.parseResult, 1000, "hatch")).toBe(P.NO_PET);
    const bare = vmBoard();
    expect(await bare.exchange(P.petCallCommand("importHex", ["50455453"]), P.parseResult, 1000, "import")).toBe(P.NO_PET);
  });
});
