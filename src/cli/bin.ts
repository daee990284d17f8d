#!/usr/bin/env node
import { processIO } from "./io.js";
import { EXIT } from "./exit-codes.js";
import { internalError, main } from "./main.js";
import { exitWhenSettled } from "./exit-guard.js";

// A reader that goes away early (`canvasflow run … | head`) is not an error; nothing is saved
// (a session lock left behind is stale: its process is gone).
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`canvasflow: cannot write to stdout: ${error.message}\n`);
  process.exit(EXIT.failed);
});

exitWhenSettled(main(process.argv.slice(2), processIO()), process.stderr, EXIT.failed, internalError);
