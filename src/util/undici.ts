/**
 * undici, loaded on first use: about a hundred modules that a canvas making no HTTP call, or a
 * program that only loads canvases, should not pay for at startup.
 */
import { createRequire } from "node:module";
import type * as Undici from "undici";

const require = createRequire(import.meta.url);
let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
  return (loaded ??= require("undici") as typeof Undici);
}
