/**
 * The one command runner of scripts/ (scripts/lib/command.js): what a command line asks of a
 * command (its version, its help, a usage error, or a run with the options read), and the help page
 * rendered from what the command declares, in the shape pet-save's commands use. Every entry is run
 * as a process by test/scripts-help-and-version.test.ts.
 */
import { describe, expect, it } from "vitest";
import { helpText, parseCommandLine } from "../scripts/lib/command.js";

const spec = {
  program: "npm run thing",
  usage: "usage: npm run thing -- [--out FILE] [--fast]",
  about: "\nDoes the thing.\nOn two lines.",
  options: [
    { name: "out", value: "FILE", help: "where it goes\n(default nowhere)" },
    { name: "fast", short: "f", help: "quickly" },
  ],
  sections: [["environment", [["BOARD", "the profile"]]] as [string, [string, string][]]],
  examples: ["npm run thing", "npm run thing -- -f"],
  exits: [[1, "it failed"], [0, "done"]] as [number, string][],
  run: () => 0,
};

describe("what a command line asks", () => {
  it("--version anywhere before --, then --help, before any other reading", () => {
    expect(parseCommandLine(spec, ["--out", "x", "--version"])).toEqual({ version: true });
    expect(parseCommandLine(spec, ["--bogus", "--version"])).toEqual({ version: true });
    expect(parseCommandLine(spec, ["--", "--version"])).toMatchObject({ usageError: expect.any(String) });
    expect(parseCommandLine(spec, ["-h"])).toEqual({ help: true });
    expect(parseCommandLine(spec, ["--fast", "--help"])).toEqual({ help: true });
  });

  it("an unknown option, a missing value or a stray argument is a usage error naming it", () => {
    expect(parseCommandLine(spec, ["--bogus"])).toEqual({ usageError: expect.stringMatching(/--bogus/) });
    expect(parseCommandLine(spec, ["--out"])).toEqual({ usageError: expect.stringMatching(/--out/) });
    expect(parseCommandLine(spec, ["extra"])).toEqual({ usageError: expect.stringMatching(/extra/) });
    expect(parseCommandLine({ ...spec, positionals: true }, ["extra"])).toMatchObject({ positionals: ["extra"] });
  });

  it("otherwise the options, read as declared", () => {
    expect(parseCommandLine(spec, ["--out", "a.js", "-f"])).toEqual({ values: { out: "a.js", fast: true }, positionals: [] });
    expect(parseCommandLine(spec, [])).toEqual({ values: {}, positionals: [] });
  });
});

describe("the help page", () => {
  it("usage, what it does, the options with --version and --help, the sections, examples and exit statuses", () => {
    expect(helpText(spec)).toBe(
      "usage: npm run thing -- [--out FILE] [--fast]\n\n" +
        "Does the thing.\nOn two lines.\n\n" +
        "options:\n" +
        "  --out FILE  where it goes\n" +
        "              (default nowhere)\n" +
        "  -f, --fast  quickly\n" +
        "  --version   print the version\n" +
        "  -h, --help  this help\n\n" +
        "environment:\n  BOARD  the profile\n\n" +
        "examples:\n  npm run thing\n  npm run thing -- -f\n\n" +
        "exit status:\n  0  done\n  1  it failed\n  2  bad usage (the reason and the usage line on stderr)\n",
    );
  });

  it("a command that says more of status 2 says it instead; one example is an example", () => {
    const text = helpText({ ...spec, examples: ["npm run thing"], exits: [[0, "done"], [2, "bad usage, or no thing"]] });
    expect(text).toMatch(/\nexample:\n {2}npm run thing\n/);
    expect(text).toMatch(/\n {2}2 {2}bad usage, or no thing\n$/);
    expect(text.match(/\n {2}2 /g)).toHaveLength(1);
  });
});
