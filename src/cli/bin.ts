#!/usr/bin/env node
import { processIO } from "./io.js";
import { EXIT } from "./run-command.js";
import { main } from "./main.js";

// A reader that goes away early (`canvasflow run … | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`canvasflow: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
