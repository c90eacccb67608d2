#!/usr/bin/env node
// `pet-save`: runs the command line compiled to plain JavaScript (dist/host/pet-save.js, no compiler
// at run time; scripts/lib/hostBuild.js says how it is built and, in a checkout, kept in step with
// the sources). The edges of the process (a closed pipe, a full disk, an error nobody caught) are
// scripts/lib/processEdges.js's.
import { pathToFileURL } from "node:url";
import { freshHostBundle } from "../scripts/lib/hostBuild.js";
import { failUnexpected, guardOutput } from "../scripts/lib/processEdges.js";

guardOutput("pet-save");
try {
  const { main } = await import(pathToFileURL(await freshHostBundle("pet-save")).href);
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  failUnexpected("pet-save", e);
}
