/**
 * YahooFinance (agent/tools/yahoofinance.py) over Yahoo Finance's keyless JSON endpoints, the
 * ones yfinance itself reads (all below https://query2.finance.yahoo.com):
 * - GET /v1/finance/search?q=…&quotesCount=…&newsCount=… — the symbol for a code or company
 *   name, and the news;
 * - GET /v8/finance/chart/<symbol>?range=1mo&interval=1d&events=div|split — the quote summary
 *   (`info`) and a month of daily prices (`history`, yfinance's default period);
 * - GET /ws/fundamentals-timeseries/v1/finance/timeseries/<symbol>?type=annualX,quarterlyX…
 *   — income statement, balance sheet, cash flow statement and share count.
 * The earnings calendar (RAGFlow's `financials`) comes only from quoteSummary, which needs a
 * signed-in cookie and crumb: the report says it is not available.
 */
import { isPlainObject } from "../../util/values.js";
import type { ToolOutput, ToolRun } from "../types.js";
import { flag, stringField, textArgument, toolTimeoutMs } from "./args.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient, apiErrorMessage } from "./http-json.js";
import {
  historySection,
  infoSection,
  joinSections,
  newsSection,
  statementSection,
  STATEMENT_LINES,
  type ChartData,
  type Frequency,
  type Fundamentals,
  type HistoryRow,
  type NewsItem,
  type StatementValue,
} from "./yahoo-report.js";
import { YAHOO_FINANCE_TIMEOUT_S } from "../timeouts.js";

export const YAHOO_FINANCE_BASE = "https://query2.finance.yahoo.com";
const NEWS_COUNT = 10;
/** The fundamentals timeseries start yfinance uses (2016-12-31). */
const FUNDAMENTALS_FROM = 1483142400;
/** Yahoo turns away clients that do not look like a browser. */
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
/** A ticker as Yahoo spells them: AAPL, BRK-B, 0700.HK, ^GSPC, EURUSD=X. */
const TICKER = /^[A-Za-z0-9^][A-Za-z0-9.\-=^]{0,19}$/;

export const CALENDAR_UNAVAILABLE =
  "Not available: Yahoo Finance serves the earnings calendar only to signed-in sessions (quoteSummary), and this tool reads its keyless endpoints.";

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

interface SearchResult {
  symbols: string[];
  news: NewsItem[];
}

async function search(api: ApiClient, base: string, q: string, quotes: number, news: number): Promise<SearchResult> {
  const request = { url: apiUrl(base, "/v1/finance/search", { q, quotesCount: quotes, newsCount: news, enableFuzzyQuery: "false", lang: "en-US" }) };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  const symbols = (Array.isArray(answer.quotes) ? answer.quotes.filter(isPlainObject) : []).map((quote) => stringField(quote.symbol)).filter((s) => s !== "");
  const items = (Array.isArray(answer.news) ? answer.news.filter(isPlainObject) : []).map((item) => {
    const published = numberOrNull(item.providerPublishTime);
    return { title: stringField(item.title), publisher: stringField(item.publisher), link: stringField(item.link), ...(published === null ? {} : { published }) };
  });
  return { symbols, news: items };
}

/**
 * The symbol for a code or a company name: the search hit spelled like the code, else the best
 * hit, else the code itself when it looks like a ticker.
 */
export function pickSymbol(code: string, symbols: readonly string[]): string | undefined {
  const exact = symbols.find((symbol) => symbol.toUpperCase() === code.toUpperCase());
  if (exact) return exact;
  if (symbols.length > 0) return symbols[0];
  return TICKER.test(code) ? code.toUpperCase() : undefined;
}

async function chart(api: ApiClient, base: string, symbol: string): Promise<ChartData> {
  const request = { url: apiUrl(base, `/v8/finance/chart/${encodeURIComponent(symbol)}`, { range: "1mo", interval: "1d", includePrePost: "false", events: "div|split" }) };
  const response = await api.send(request);
  if (response.status === 404) {
    throw new Error(`YahooFinance: ${request.url.host} has no price data for ${symbol}: ${apiErrorMessage(response.text) || "not found"}`);
  }
  const answer = api.parseJson(request, api.requireOk(request, response));
  const result = isPlainObject(answer) && isPlainObject(answer.chart) && Array.isArray(answer.chart.result) ? answer.chart.result[0] : undefined;
  if (!isPlainObject(result) || !isPlainObject(result.meta)) throw api.unexpected(request, "a chart result");
  const times = Array.isArray(result.timestamp) ? result.timestamp : [];
  const indicators = isPlainObject(result.indicators) && Array.isArray(result.indicators.quote) ? result.indicators.quote[0] : undefined;
  const quote = isPlainObject(indicators) ? indicators : {};
  const column = (name: string, index: number) => (Array.isArray(quote[name]) ? numberOrNull(quote[name][index]) : null);
  const events = isPlainObject(result.events) ? result.events : {};
  const dividends = eventValues(events.dividends, (event) => numberOrNull(event.amount));
  const splits = eventValues(events.splits, (event) => {
    const numerator = numberOrNull(event.numerator);
    const denominator = numberOrNull(event.denominator);
    return numerator !== null && denominator ? numerator / denominator : null;
  });
  const rows: HistoryRow[] = [];
  times.forEach((time: unknown, index: number) => {
    if (typeof time !== "number") return;
    rows.push({
      time,
      open: column("open", index),
      high: column("high", index),
      low: column("low", index),
      close: column("close", index),
      volume: column("volume", index),
      dividends: dividends.get(time) ?? 0,
      splits: splits.get(time) ?? 0,
    });
  });
  return { meta: result.meta, rows };
}

/** Chart events ({"<epoch>": {date, …}}) by their date. */
function eventValues(value: unknown, read: (event: Record<string, unknown>) => number | null): Map<number, number> {
  const byTime = new Map<number, number>();
  if (!isPlainObject(value)) return byTime;
  for (const event of Object.values(value)) {
    if (!isPlainObject(event) || typeof event.date !== "number") continue;
    const amount = read(event);
    if (amount !== null) byTime.set(event.date, amount);
  }
  return byTime;
}

async function fundamentals(api: ApiClient, base: string, symbol: string, types: readonly string[]): Promise<Fundamentals> {
  const request = {
    url: apiUrl(base, `/ws/fundamentals-timeseries/v1/finance/timeseries/${encodeURIComponent(symbol)}`, {
      symbol,
      type: types.join(","),
      period1: FUNDAMENTALS_FROM,
      period2: Math.floor(Date.now() / 1000),
    }),
  };
  const answer = await api.json(request);
  const series = isPlainObject(answer) && isPlainObject(answer.timeseries) && Array.isArray(answer.timeseries.result) ? answer.timeseries.result : undefined;
  if (!series) throw api.unexpected(request, "a timeseries result");
  const byType = new Map<string, StatementValue[]>();
  for (const entry of series.filter(isPlainObject)) {
    const meta = isPlainObject(entry.meta) ? entry.meta : {};
    const type = Array.isArray(meta.type) ? stringField(meta.type[0]) : "";
    const values = type !== "" && Array.isArray(entry[type]) ? entry[type] : [];
    const read: StatementValue[] = [];
    for (const item of values) {
      if (!isPlainObject(item) || !isPlainObject(item.reportedValue)) continue;
      const value = numberOrNull(item.reportedValue.raw);
      if (value !== null && stringField(item.asOfDate) !== "") read.push({ asOfDate: stringField(item.asOfDate), value });
    }
    if (read.length > 0) byType.set(type, read);
  }
  return byType;
}

interface Flags {
  info: boolean;
  history: boolean;
  count: boolean;
  financials: boolean;
  income_stmt: boolean;
  balance_sheet: boolean;
  cash_flow_statement: boolean;
  news: boolean;
}

function readFlags(params: Record<string, unknown>): Flags {
  return {
    info: flag(params.info, "info", true),
    history: flag(params.history, "history", false),
    count: flag(params.count, "count", false),
    financials: flag(params.financials, "financials", false),
    income_stmt: flag(params.income_stmt, "income_stmt", false),
    balance_sheet: flag(params.balance_sheet, "balance_sheet", false),
    cash_flow_statement: flag(params.cash_flow_statement, "cash_flow_statement", false),
    news: flag(params.news, "news", true),
  };
}

/** The statements a report shows, with their titles and lines, in report order. */
function statements(flags: Flags): Array<{ title: string; lines: readonly string[]; frequency: Frequency }> {
  const out: Array<{ title: string; lines: readonly string[]; frequency: Frequency }> = [];
  if (flags.count) out.push({ title: "Share count", lines: STATEMENT_LINES.shareCount, frequency: "quarterly" });
  if (flags.income_stmt) {
    out.push({ title: "Income statement", lines: STATEMENT_LINES.income, frequency: "annual" });
    out.push({ title: "Quarterly income statement", lines: STATEMENT_LINES.income, frequency: "quarterly" });
  }
  if (flags.balance_sheet) {
    out.push({ title: "Balance sheet", lines: STATEMENT_LINES.balance, frequency: "annual" });
    out.push({ title: "Quarterly balance sheet", lines: STATEMENT_LINES.balance, frequency: "quarterly" });
  }
  if (flags.cash_flow_statement) {
    out.push({ title: "Cash flow statement", lines: STATEMENT_LINES.cashFlow, frequency: "annual" });
    out.push({ title: "Quarterly cash flow statement", lines: STATEMENT_LINES.cashFlow, frequency: "quarterly" });
  }
  return out;
}

export const runYahooFinance: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const code = await textArgument(args.stock_code);
  if (code === "") return { formalized_content: "", report: "" };
  const flags = readFlags(ctx.params);
  const base = toolBaseUrl(ctx, "YahooFinance", YAHOO_FINANCE_BASE);
  const api = new ApiClient("YahooFinance", ctx.signal, toolTimeoutMs(ctx.params, YAHOO_FINANCE_TIMEOUT_S), { "user-agent": USER_AGENT });

  const found = await search(api, base, code, 6, flags.news ? NEWS_COUNT : 0);
  const symbol = pickSymbol(code, found.symbols);
  if (!symbol) throw new Error(`YahooFinance found no stock for ${JSON.stringify(code)}: give a ticker such as AAPL or 0700.HK`);
  // News about the code asked for is news about the symbol only when they are the same.
  const news = !flags.news ? [] : symbol.toUpperCase() === code.toUpperCase() ? found.news : (await search(api, base, symbol, 0, NEWS_COUNT)).news;

  const prices = flags.info || flags.history ? await chart(api, base, symbol) : undefined;
  const wanted = statements(flags);
  const types = [...new Set(wanted.flatMap((s) => s.lines.map((line) => `${s.frequency}${line}`)))];
  const data = types.length > 0 ? await fundamentals(api, base, symbol, types) : new Map<string, StatementValue[]>();

  // RAGFlow's order: information, history, calendar, statements, news.
  const sections: string[] = [];
  if (prices && flags.info) sections.push(infoSection(prices.meta));
  if (prices && flags.history) sections.push(historySection(prices));
  if (flags.financials) sections.push(`# Calendar:\n${CALENDAR_UNAVAILABLE}\n`);
  for (const statement of wanted) sections.push(statementSection(statement.title, data, statement.lines, statement.frequency));
  if (flags.news) sections.push(newsSection(news));
  const report = joinSections(sections);
  return { formalized_content: report, report };
};
