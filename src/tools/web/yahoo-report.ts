/**
 * YahooFinance's `report`: one Markdown section per enabled flag, each "# <Title>:\n<table>\n",
 * joined by blank lines as RAGFlow joins its pandas `to_markdown()` sections. Pure functions over
 * the data the Yahoo Finance JSON endpoints return (see yahoo-finance.ts).
 */

/** The price chart: its meta (the quote summary) and daily rows. */
export interface ChartData {
  meta: Record<string, unknown>;
  rows: HistoryRow[];
}

export interface HistoryRow {
  /** Epoch seconds. */
  time: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  dividends: number;
  splits: number;
}

/** One reported value of a financial statement line. */
export interface StatementValue {
  /** Period end, YYYY-MM-DD. */
  asOfDate: string;
  value: number;
}

/** Fundamentals by timeseries type, e.g. "annualTotalAssets" → values. */
export type Fundamentals = ReadonlyMap<string, readonly StatementValue[]>;

export interface NewsItem {
  title: string;
  publisher: string;
  /** Epoch seconds, when known. */
  published?: number;
  link: string;
}

/** Statement lines read from the fundamentals timeseries, in the order a report lists them. */
export const STATEMENT_LINES = {
  income: [
    "TotalRevenue",
    "CostOfRevenue",
    "GrossProfit",
    "OperatingExpense",
    "ResearchAndDevelopment",
    "SellingGeneralAndAdministration",
    "OperatingIncome",
    "InterestExpense",
    "PretaxIncome",
    "TaxProvision",
    "NetIncome",
    "BasicEPS",
    "DilutedEPS",
    "EBITDA",
  ],
  balance: [
    "TotalAssets",
    "CurrentAssets",
    "CashAndCashEquivalents",
    "Inventory",
    "AccountsReceivable",
    "TotalLiabilitiesNetMinorityInterest",
    "CurrentLiabilities",
    "AccountsPayable",
    "TotalDebt",
    "NetDebt",
    "StockholdersEquity",
    "RetainedEarnings",
    "WorkingCapital",
    "OrdinarySharesNumber",
  ],
  cashFlow: [
    "OperatingCashFlow",
    "InvestingCashFlow",
    "FinancingCashFlow",
    "FreeCashFlow",
    "CapitalExpenditure",
    "RepurchaseOfCapitalStock",
    "CashDividendsPaid",
    "IssuanceOfDebt",
    "RepaymentOfDebt",
    "EndCashPosition",
  ],
  shareCount: ["OrdinarySharesNumber", "ShareIssued"],
} as const;

export type Frequency = "annual" | "quarterly";
/** How many periods a statement table shows (yfinance shows about four years or five quarters). */
const PERIODS: Record<Frequency, number> = { annual: 4, quarterly: 5 };

/** Meta fields holding epoch seconds, shown as dates. */
const EPOCH_FIELDS = new Set(["regularMarketTime", "firstTradeDate"]);

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const lines = [`| ${headers.map(cell).join(" | ")} |`, `|${headers.map(() => ":---").join("|")}|`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(" | ")} |`);
  return lines.join("\n");
}

/** Numbers as a reader wants them: integers whole, prices to at most 4 decimals (no float noise). */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
}

/** "TotalRevenue" → "Total Revenue", "BasicEPS" → "Basic EPS" (yfinance's row names). */
export function lineLabel(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
}

function section(title: string, body: string): string {
  return `# ${title}:\n${body}\n`;
}

/** The quote summary: every plain field of the chart's meta. */
export function infoSection(meta: Record<string, unknown>): string {
  const rows: string[][] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (value === null || typeof value === "object") continue;
    if (EPOCH_FIELDS.has(key) && typeof value === "number") rows.push([key, isoTime(value)]);
    else rows.push([key, typeof value === "number" ? formatNumber(value) : String(value)]);
  }
  return section("Information", markdownTable(["Field", "Value"], rows));
}

/** The trading day of a row, in the exchange's time zone (meta.gmtoffset, seconds). */
function tradingDay(time: number, gmtOffset: number): string {
  return new Date((time + gmtOffset) * 1000).toISOString().slice(0, 10);
}

export function historySection(chart: ChartData): string {
  const offset = typeof chart.meta.gmtoffset === "number" ? chart.meta.gmtoffset : 0;
  const rows = chart.rows.map((row) => [
    tradingDay(row.time, offset),
    formatNumber(row.open),
    formatNumber(row.high),
    formatNumber(row.low),
    formatNumber(row.close),
    formatNumber(row.volume),
    formatNumber(row.dividends),
    formatNumber(row.splits),
  ]);
  return section("History", markdownTable(["Date", "Open", "High", "Low", "Close", "Volume", "Dividends", "Stock Splits"], rows));
}

/**
 * A statement as yfinance lays it out: one row per line item, one column per period (newest
 * first). Lines without any value are left out; a statement without data says so.
 */
export function statementSection(title: string, fundamentals: Fundamentals, lines: readonly string[], frequency: Frequency): string {
  const series = lines.map((line) => [line, fundamentals.get(`${frequency}${line}`) ?? []] as const).filter(([, values]) => values.length > 0);
  const dates = [...new Set(series.flatMap(([, values]) => values.map((v) => v.asOfDate)))].sort().reverse().slice(0, PERIODS[frequency]);
  if (series.length === 0 || dates.length === 0) return section(title, "No data.");
  const rows = series.map(([line, values]) => [
    lineLabel(line),
    ...dates.map((date) => formatNumber(values.find((v) => v.asOfDate === date)?.value)),
  ]);
  return section(title, markdownTable(["", ...dates], rows));
}

export function newsSection(news: readonly NewsItem[]): string {
  if (news.length === 0) return section("News", "No news.");
  const rows = news.map((item) => [item.title, item.publisher, item.published === undefined ? "" : isoTime(item.published), item.link]);
  return section("News", markdownTable(["Title", "Publisher", "Published", "Link"], rows));
}

/** The sections joined as RAGFlow joins them. */
export function joinSections(sections: readonly string[]): string {
  return sections.join("\n\n");
}
