/**
 * What the Browser's model can do with the page, as functions of the Agent tool loop: open a URL,
 * read the page's text, click, type, go back. Every connection the browser makes (the page, its
 * frames, scripts, images, fetches, WebSockets, workers) goes through the guarded proxy that
 * run-browser.ts starts: non-public addresses are refused unless the operator allows them
 * (egress.allow, allowPrivateNetwork). Here, only http(s) pages are opened.
 */
import type { Page } from "playwright-core";
import type { AgentFunction } from "../../components/llm/agent-loop.js";

/** Characters of page text a model reads at most per call. */
const PAGE_TEXT_LIMIT = 20_000;

/** A request the browser was refused, and why (the host it was for; "" when not a host's). */
export interface BlockedRequest {
  host: string;
  reason: string;
}

/** Refuse requests that are not http(s) (file:, ftp:, chrome:…); `blocked` collects why. Addresses are the proxy's to check. */
export async function guardPage(page: Page, blocked: BlockedRequest[]): Promise<void> {
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "data:" || url.protocol === "blob:" || url.protocol === "about:") return route.continue();
    blocked.push({ host: "", reason: `${url.protocol} URLs are not opened` });
    return route.abort("blockedbyclient");
  });
}

/** A URL's host as the proxy names it (no brackets around IPv6). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    return "";
  }
}

async function pageText(page: Page): Promise<string> {
  const title = await page.title();
  // An expression string, not a function: a transpiled function may carry helpers the page does not have.
  const read = page.evaluate<string>("document.body ? document.body.innerText : ''").catch((error: Error) => `[the page text could not be read: ${error.message.split("\n")[0]}]`);
  const text = String(await read).replace(/\n{3,}/g, "\n\n").trim();
  const shown = text.length > PAGE_TEXT_LIMIT ? `${text.slice(0, PAGE_TEXT_LIMIT)}\n[… ${text.length - PAGE_TEXT_LIMIT} more characters]` : text;
  return `URL: ${page.url()}\nTitle: ${title}\n\n${shown}`;
}

function fn(name: string, description: string, properties: Record<string, unknown>, required: string[], call: AgentFunction["call"]): AgentFunction {
  return { name, schema: { type: "function", function: { name, description, parameters: { type: "object", properties, required } } }, call };
}

export function browserFunctions(page: Page, blocked: BlockedRequest[], timeoutMs: number): AgentFunction[] {
  // What was refused since `before`, the opened URL's own host first: that is why it did not open.
  const lastBlocked = (before: number, url: string) => {
    const host = hostOf(url);
    const since = blocked.slice(before);
    const ordered = [...since.filter((b) => b.host === host), ...since.filter((b) => b.host !== host)];
    return ordered.length > 0 ? ` (blocked: ${ordered.map((b) => b.reason).join("; ")})` : "";
  };
  return [
    fn("go_to_url", "Open a web page and read its text.", { url: { type: "string", description: "The absolute http(s) URL." } }, ["url"], async (args) => {
      const url = String(args.url ?? "");
      if (!/^https?:\/\//i.test(url)) throw new Error(`url must be an absolute http(s) URL, not ${JSON.stringify(url)}`);
      const before = blocked.length;
      const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMs }).catch((error: Error) => {
        throw new Error(`could not open ${url}: ${error.message.split("\n")[0]}${lastBlocked(before, url)}`);
      });
      // A plain http:// page the proxy refused arrives as its 403 answer, not as a failure.
      if (response?.headers()["x-canvasflow-egress"] === "refused" && blocked.length > before) throw new Error(`could not open ${url}: the egress guard refused it${lastBlocked(before, url)}`);
      const status = response ? ` (HTTP ${response.status()})` : "";
      return `${await pageText(page)}${status ? `\n\n${status.trim()}` : ""}`;
    }),
    fn("get_page_text", "Read the text of the page that is open.", {}, [], async () => pageText(page)),
    fn("click", "Click the element with this visible text (or CSS selector), then read the page.", { target: { type: "string", description: "Visible text of a link or button, or a CSS selector." } }, ["target"], async (args) => {
      const target = String(args.target ?? "");
      const byText = page.getByText(target, { exact: false }).first();
      const locator = (await byText.count()) > 0 ? byText : page.locator(target).first();
      await locator.click({ timeout: Math.min(timeoutMs, 15_000) });
      await page.waitForLoadState("domcontentloaded", { timeout: timeoutMs }).catch(() => undefined);
      return pageText(page);
    }),
    fn("type_text", "Type text into the input field matching a CSS selector (or its label/placeholder); press Enter when asked.", {
      target: { type: "string", description: "CSS selector, label or placeholder of the field." },
      text: { type: "string" },
      press_enter: { type: "boolean" },
    }, ["target", "text"], async (args) => {
      const target = String(args.target ?? "");
      const byLabel = page.getByLabel(target).or(page.getByPlaceholder(target)).first();
      const field = (await byLabel.count()) > 0 ? byLabel : page.locator(target).first();
      await field.fill(String(args.text ?? ""), { timeout: Math.min(timeoutMs, 15_000) });
      if (args.press_enter === true) {
        await field.press("Enter");
        await page.waitForLoadState("domcontentloaded", { timeout: timeoutMs }).catch(() => undefined);
      }
      return pageText(page);
    }),
    fn("go_back", "Go back to the previous page.", {}, [], async () => {
      await page.goBack({ timeout: timeoutMs });
      return pageText(page);
    }),
  ];
}
