#!/usr/bin/env node
// `pet-save`: runs the command line compiled to plain JavaScript (dist/host/pet-save.js, no compiler
// at run time; scripts/lib/hostBuild.js says how it is built and, in a checkout, kept in step with
// the sources). The edges of the process (a closed pipe, a full disk, an error nobody caught) are
// scripts/lib/command.js's.
import { runHostCommand } from "../scripts/lib/command.js";

await runHostCommand({ program: "pet-save", bundle: "pet-save", main: (m, argv) => m.main(argv) });
