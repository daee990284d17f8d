/**
 * Finding and launching the system Chromium for the Browser component (playwright-core ships no
 * browser): `browser.executablePath` in canvasflow.config.json, else CANVASFLOW_CHROMIUM, else
 * Debian's /usr/bin/chromium (or chromium-browser, google-chrome). Without one the component
 * fails with an UnavailableError saying how to install it.
 */
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { UnavailableError } from "../../components/unavailable.js";
import { isPlainObject } from "../../util/values.js";
import type { RuntimeServices } from "../../components/types.js";
import { importPackage } from "../../util/optional-package.js";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

export function chromiumPath(services: RuntimeServices, env: NodeJS.ProcessEnv = process.env): string {
  const tools = services.tools;
  const browser = isPlainObject(tools) && isPlainObject(tools.browser) ? tools.browser : {};
  const configured = typeof browser.executablePath === "string" && browser.executablePath !== "" ? browser.executablePath : env.CANVASFLOW_CHROMIUM;
  if (configured) {
    if (!existsSync(configured)) throw new UnavailableError(`Browser: the Chromium at ${configured} (browser.executablePath or CANVASFLOW_CHROMIUM) does not exist`);
    return configured;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) throw new UnavailableError("Browser needs Chromium, which is not installed: install Debian's chromium package (apt-get install chromium) or set browser.executablePath in canvasflow.config.json");
  return found;
}

/**
 * Chromium's flags for a guarded proxy: every request through it (loopback too, which Chromium
 * otherwise sends direct), and WebRTC kept off UDP that would bypass it. Chromium resolves names
 * itself, so only a proxy that checks each target can hold it to the egress guard.
 */
export function proxyFlags(proxyUrl: string): string[] {
  return [`--proxy-server=${proxyUrl}`, "--proxy-bypass-list=<-loopback>", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--dns-prefetch-disable"];
}

export async function launchChromium(path: string, options: { headless: boolean; sandbox: boolean; proxyUrl: string }): Promise<Browser> {
  // Loaded on first use: playwright-core takes seconds to import, and most runs never browse.
  const { chromium } = await importPackage<typeof import("playwright-core")>("playwright-core", "Browser (a Chromium driven by playwright-core)");
  try {
    return await chromium.launch({
      executablePath: path,
      headless: options.headless,
      chromiumSandbox: options.sandbox,
      // No traffic of Chromium's own (sign-in, updates, sync, components): a task's connections are
      // its pages' only, and the guard's refusals are about them.
      args: ["--disable-dev-shm-usage", "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps", ...proxyFlags(options.proxyUrl)],
    });
  } catch (error) {
    throw new UnavailableError(`Browser could not start Chromium at ${path}: ${(error as Error).message.split("\n")[0]}`);
  }
}
