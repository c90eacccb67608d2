/**
 * Every npm script's entry answers --help (its options, an example, its exit statuses) and
 * --version ("<program> <version>") with status 0 before doing anything else, and a bad option is a
 * usage error (status 2). `npm run bench -- --espruino PATH` with no interpreter at PATH is an
 * error, not a run whose firmware section quietly says it was skipped. (pet-save has its own tests;
 * `npm run flash`, the upload's old name, runs the same entry as upload.) The entries in scripts/
 * share one runner, scripts/lib/command.js (test/scripts-command-runner.test.ts).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../scripts/lib/build.js";

const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** The entries: program name as --version prints it, and how to run it. */
const ENTRIES: [string, string[]][] = [
  ["npm start", [process.execPath, join(ROOT, "scripts", "start.js")]],
  ["npm run build", [process.execPath, join(ROOT, "scripts", "build.js")]],
  ["npm run web", [process.execPath, join(ROOT, "scripts", "web.js")]],
  ["npm run build:web", [process.execPath, join(ROOT, "scripts", "build-web.js")]],
  ["npm run screenshot:web", [process.execPath, join(ROOT, "scripts", "screenshot-web.js")]],
  ["npm run bench", [TSX, join(ROOT, "scripts", "bench.ts")]],
  ["build-host", [process.execPath, join(ROOT, "scripts", "build-host.js")]],
  ["npm run upload", [process.execPath, join(ROOT, "scripts", "upload.js")]],
  ["npm run board-check", [process.execPath, join(ROOT, "scripts", "board-check.js")]],
  ["npm run soak", [process.execPath, join(ROOT, "scripts", "soak.js")]],
];

function run(command: string[], args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command[0]!, [...command.slice(1), ...args], { cwd: ROOT, timeout: 30000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe("the npm scripts' entries", () => {
  it("answer --version, --help and a bad option", async () => {
    const results = await Promise.all(
      ENTRIES.map(async ([name, command]) => ({
        name,
        version: await run(command, ["--version"]),
        help: await run(command, ["--help"]),
        // (bench's own refusal, of an --espruino that is not there, is the next test: one start through tsx fewer.)
        bad: name === "build-host" || name === "npm run bench" ? null : await run(command, ["--no-such-option"]),
      })),
    );
    for (const r of results) {
      expect(r.version, r.name).toMatchObject({ code: 0, stdout: r.name + " " + VERSION + "\n" });
      expect(r.help.code, r.name).toBe(0);
      expect(r.help.stdout, r.name).toMatch(/^usage: /);
      expect(r.help.stdout, r.name).toMatch(/exit status:/);
      if (r.name !== "build-host") {
        expect(r.help.stdout, r.name).toMatch(/\n {2}-h, --help +this help\n/);
        expect(r.help.stdout, r.name).toMatch(/examples?:\n {2}\S/);
      }
      if (r.bad !== null) {
        expect(r.bad, r.name).toMatchObject({ code: 2 });
        expect(r.bad.stderr, r.name).toMatch(/usage: /);
      }
    }
  });

  it("bench refuses an --espruino that names no interpreter, before measuring anything", async () => {
    const r = await run([TSX, join(ROOT, "scripts", "bench.ts")], ["--espruino", "/nonexistent/espruino", "--json"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("--espruino /nonexistent/espruino: no such file; name Espruino's Linux build (ESPRUINO=$(../shared/espruino/build.sh | tail -1))\n");
  });
});
