/**
 * Debian's Chromium driven by playwright-core, for tests that need a real browser (mermaid's own
 * parser needs a DOM; the HTML views are clicked through). One browser per test file.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";

export const CHROMIUM = process.env.CANVASFLOW_CHROMIUM ?? "/usr/bin/chromium";

export async function launchTestBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`these tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CANVASFLOW_CHROMIUM)`);
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"] });
}

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** test-output/<name>/ under the project (gitignored): screenshots for people to look at. */
export function testOutputDir(name: string): string {
  const dir = join(projectRoot, "test-output", name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** mermaid's browser bundle (the devDependency). */
export const MERMAID_BUNDLE = join(projectRoot, "node_modules/mermaid/dist/mermaid.min.js");
