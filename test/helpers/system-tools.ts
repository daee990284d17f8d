/**
 * The programs some tests need from the system (README, "Tests"): Debian's Chromium, poppler's
 * pdftotext, unzip and bubblewrap. Where one is missing, `missing(tool)` says so:
 * - on a developer's machine it prints why the tests that need it are skipped, and the one command
 *   that installs it, and returns that reason (for `describe.skipIf` / `it.skipIf`);
 * - under CI (`CI=true`, as .ci/run sets it) nothing may be skipped: it throws that reason, so the
 *   file fails with it.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { CHROMIUM } from "./chromium.js";

export type SystemTool = "chromium" | "pdftotext" | "unzip" | "bwrap";

/** Each tool: how it is found, and the Debian package that brings it. */
const TOOLS: Record<SystemTool, { path: () => string | undefined; apt: string; what: string }> = {
  chromium: { path: () => (executable(CHROMIUM) ? CHROMIUM : undefined), apt: "chromium", what: `Chromium at ${CHROMIUM} (CANVASFLOW_CHROMIUM)` },
  pdftotext: { path: () => onPath("pdftotext"), apt: "poppler-utils", what: "pdftotext on the PATH" },
  unzip: { path: () => onPath("unzip"), apt: "unzip", what: "unzip on the PATH" },
  bwrap: { path: () => onPath("bwrap"), apt: "bubblewrap", what: "bwrap (bubblewrap) on the PATH" },
};

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on the PATH that can be run. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const warned = new Set<string>();

/**
 * undefined when every tool is there. Otherwise the reason, printed once per tool and file where
 * tests are skipped for it, or thrown under CI. `tests` names what is skipped.
 */
export function missing(tools: SystemTool | SystemTool[], tests: string): string | undefined {
  const absent = [tools].flat().filter((tool) => TOOLS[tool].path() === undefined);
  if (absent.length === 0) return undefined;
  const reason = `${tests}: no ${absent.map((tool) => TOOLS[tool].what).join(", no ")}; install: sudo apt-get install -y ${absent.map((tool) => TOOLS[tool].apt).join(" ")}`;
  if (process.env.CI === "true") throw new Error(`${reason} (CI=true: nothing is skipped)`);
  if (!warned.has(reason)) {
    warned.add(reason);
    console.warn(`skipped: ${reason}`);
  }
  return reason;
}
