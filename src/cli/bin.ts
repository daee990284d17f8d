#!/usr/bin/env node
import { processIO } from "./io.js";
import { EXIT } from "./run-command.js";
import { main } from "./main.js";
import { exitWhenSettled } from "./exit-guard.js";

// A reader that goes away early (`canvasflow run … | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

exitWhenSettled(main(process.argv.slice(2), processIO()), process.stderr, EXIT.failed);
