/**
 * The Browser component's work (RAGFlow runs browser-use): the model drives Debian's Chromium
 * through playwright-core for at most `max_steps` rounds of actions (open a URL, read, click,
 * type, go back) and answers the task. Files the pages download are saved in the files folder and
 * listed in `downloaded_files`. The browser is closed when the component ends or the run is
 * cancelled. Its connections all go through a guarded proxy (sandbox/egress/proxy.ts).
 */
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type { Browser, Download } from "playwright-core";
import type { ChatModel } from "../../llm/types.js";
import type { RuntimeServices } from "../../components/types.js";
import type { AgentFunction } from "../../components/llm/agent-loop.js";
import { makePrivateFolder } from "../../util/private-files.js";
import { filesDir } from "../files/store.js";
import { startEgressProxy } from "../../sandbox/egress/proxy.js";
import { egressPolicyOf } from "../../sandbox/egress/service.js";
import { browserFunctions, guardPage, type BlockedRequest } from "./actions.js";
import { chromiumPath, launchChromium } from "./chromium.js";

interface BrowserTask {
  services: RuntimeServices;
  signal: AbortSignal;
  headless: boolean;
  sandbox: boolean;
  /** Per page action. */
  actionTimeoutMs: number;
  /** Runs the model's loop with the page's functions; returns the final answer. */
  drive(functions: AgentFunction[]): Promise<string>;
}

interface DownloadedFile {
  filename: string;
  path: string;
  url: string;
}

interface BrowserResult {
  content: string;
  downloaded_files: DownloadedFile[];
}

/** Model-facing guidance, put before the component's own system prompt. */
export const BROWSER_SYSTEM_PROMPT =
  "You control a web browser through functions: go_to_url opens a page and returns its text; get_page_text, click, type_text and go_back act on the open page. Use them to complete the user's task, then answer with the result. Only what the pages say counts: quote it.";

export async function runBrowserTask(task: BrowserTask): Promise<BrowserResult> {
  const path = chromiumPath(task.services);
  // Every connection the browser makes goes through this proxy, which checks it with the egress
  // guard and collects why it refused one, for the model to read.
  const blocked: BlockedRequest[] = [];
  const proxy = await startEgressProxy({ policy: egressPolicyOf(task.services), role: "url host", onRefused: (refusal) => blocked.push({ host: refusal.host, reason: refusal.reason }) });
  let browser: Browser;
  try {
    browser = await launchChromium(path, { headless: task.headless, sandbox: task.sandbox, proxyUrl: proxy.url! });
  } catch (error) {
    await proxy.close();
    throw error;
  }
  const onAbort = () => void browser.close().catch(() => undefined);
  task.signal.addEventListener("abort", onAbort, { once: true });
  const downloads: Promise<DownloadedFile | undefined>[] = [];
  try {
    const context = await browser.newContext({ acceptDownloads: true, javaScriptEnabled: true });
    const page = await context.newPage();
    page.setDefaultTimeout(task.actionTimeoutMs);
    await guardPage(page, blocked);
    const folder = join(filesDir({ services: task.services } as never), `browser-${randomUUID().replace(/-/g, "")}`);
    page.on("download", (download: Download) => {
      downloads.push(
        (async () => {
          await makePrivateFolder(folder);
          const target = join(folder, download.suggestedFilename().replace(/[\\/]/g, "_"));
          await download.saveAs(target);
          return { filename: download.suggestedFilename(), path: target, url: download.url() };
        })().catch(() => undefined),
      );
    });
    const content = await task.drive(browserFunctions(page, blocked, task.actionTimeoutMs));
    const files = (await Promise.all(downloads)).filter((f): f is DownloadedFile => f !== undefined);
    return { content, downloaded_files: files };
  } finally {
    task.signal.removeEventListener("abort", onAbort);
    await browser.close().catch(() => undefined);
    await proxy.close();
  }
}

export type { ChatModel };
