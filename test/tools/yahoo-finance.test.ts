/**
 * YahooFinance against a loopback stand-in of Yahoo Finance's keyless JSON endpoints: search
 * (symbols and news), chart (quote summary and daily prices) and the fundamentals timeseries.
 */
import { describe, expect, it } from "vitest";
import { validateDsl } from "../../src/api.js";
import { pickSymbol } from "../../src/tools/web/yahoo-finance.js";
import { formatNumber, lineLabel, markdownTable, statementSection } from "../../src/tools/web/yahoo-report.js";
import { finished, messages, nodeFinished } from "../helpers/dsl.js";
import { closedPort, type RecordedRequest, sendJson, standIn } from "../helpers/http.js";
import { builtinDefinition } from "../helpers/registry.js";
import { runToolCanvas, toolCanvas, toolContext, unavailableError } from "../helpers/tools.js";

const yahoo = builtinDefinition("YahooFinance").tool!;
const DEFAULTS = builtinDefinition("YahooFinance").defaults ?? {};

const CHART = {
  chart: {
    result: [
      {
        meta: {
          currency: "USD",
          symbol: "AAPL",
          exchangeName: "NMS",
          fullExchangeName: "NasdaqGS",
          instrumentType: "EQUITY",
          firstTradeDate: 345479400,
          regularMarketTime: 1717185601,
          gmtoffset: -14400,
          timezone: "EDT",
          regularMarketPrice: 192.25,
          longName: "Apple Inc.",
          chartPreviousClose: 170.33000183105469,
          currentTradingPeriod: { regular: { start: 1717162200, end: 1717185600 } },
          validRanges: ["1d", "5d"],
        },
        timestamp: [1716816600, 1716903000],
        events: { dividends: { "1716816600": { amount: 0.25, date: 1716816600 } } },
        indicators: {
          quote: [{ open: [191.50999450683594, 189.61000061035156], high: [193, 192.25], low: [189.1, null], close: [189.99000549316406, 190.29], volume: [52280100, 53068000] }],
          adjclose: [{ adjclose: [189.99, 190.29] }],
        },
      },
    ],
    error: null,
  },
};

function series(type: string, values: Array<[string, number]>) {
  return {
    meta: { symbol: ["AAPL"], type: [type] },
    timestamp: values.map(([date]) => Date.parse(date) / 1000),
    [type]: values.map(([asOfDate, raw]) => ({ dataId: 20001, asOfDate, periodType: type.startsWith("annual") ? "12M" : "3M", currencyCode: "USD", reportedValue: { raw, fmt: String(raw) } })),
  };
}

const TIMESERIES = {
  timeseries: {
    result: [
      series("annualTotalAssets", [
        ["2022-09-30", 352755000000],
        ["2023-09-30", 352583000000],
      ]),
      series("annualStockholdersEquity", [["2023-09-30", 62146000000]]),
      series("quarterlyTotalAssets", [["2024-03-31", 337411000000]]),
      { meta: { symbol: ["AAPL"], type: ["annualNetDebt"] } },
    ],
    error: null,
  },
};

const SEARCH_NEWS = [
  { uuid: "n1", title: "Apple | WWDC preview", publisher: "Example Wire", link: "https://news.example/wwdc", providerPublishTime: 1717160000, type: "STORY" },
];

function yahooApi(handler?: (request: RecordedRequest) => unknown) {
  return standIn((request, res) => {
    const custom = handler?.(request);
    if (custom !== undefined) return sendJson(res, 200, custom);
    if (request.path === "/v1/finance/search") {
      const quotes = request.query.q === "Apple" || request.query.q === "AAPL" ? [{ symbol: "AAPL", shortname: "Apple Inc.", quoteType: "EQUITY" }] : [];
      return sendJson(res, 200, { quotes: quotes.slice(0, Number(request.query.quotesCount)), news: request.query.q === "AAPL" ? SEARCH_NEWS.slice(0, Number(request.query.newsCount)) : [] });
    }
    if (request.path === "/v8/finance/chart/AAPL") return sendJson(res, 200, CHART);
    if (request.path.startsWith("/v8/finance/chart/")) return sendJson(res, 404, { chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } } });
    if (request.path === "/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL") return sendJson(res, 200, TIMESERIES);
    sendJson(res, 404, { finance: { result: null, error: { code: "Not Found", description: "HTTP 404 Not Found" } } });
  });
}

const INFO = `# Information:
| Field | Value |
|:---|:---|
| currency | USD |
| symbol | AAPL |
| exchangeName | NMS |
| fullExchangeName | NasdaqGS |
| instrumentType | EQUITY |
| firstTradeDate | 1980-12-12T14:30:00Z |
| regularMarketTime | 2024-05-31T20:00:01Z |
| gmtoffset | -14400 |
| timezone | EDT |
| regularMarketPrice | 192.25 |
| longName | Apple Inc. |
| chartPreviousClose | 170.33 |
`;

const HISTORY = `# History:
| Date | Open | High | Low | Close | Volume | Dividends | Stock Splits |
|:---|:---|:---|:---|:---|:---|:---|:---|
| 2024-05-27 | 191.51 | 193 | 189.1 | 189.99 | 52280100 | 0.25 | 0 |
| 2024-05-28 | 189.61 | 192.25 |  | 190.29 | 53068000 | 0 | 0 |
`;

const BALANCE = `# Balance sheet:
|  | 2023-09-30 | 2022-09-30 |
|:---|:---|:---|
| Total Assets | 352583000000 | 352755000000 |
| Stockholders Equity | 62146000000 |  |
`;

const QUARTERLY_BALANCE = `# Quarterly balance sheet:
|  | 2024-03-31 |
|:---|:---|
| Total Assets | 337411000000 |
`;

const NEWS = `# News:
| Title | Publisher | Published | Link |
|:---|:---|:---|:---|
| Apple \\| WWDC preview | Example Wire | 2024-05-31T12:53:20Z | https://news.example/wwdc |
`;

describe("YahooFinance run", () => {
  it("resolves a company name, then reports information, history, balance sheets and news", async () => {
    const api = await yahooApi();
    const { ctx, references } = toolContext({ params: { ...DEFAULTS, history: true, balance_sheet: true }, endpoints: { YahooFinance: { baseURL: api.base } } });
    const output = await yahoo.run({ stock_code: "Apple" }, ctx);
    const report = [INFO, HISTORY, BALANCE, QUARTERLY_BALANCE, NEWS].join("\n\n");
    expect(output).toEqual({ formalized_content: report, report });
    expect(api.requests.map((r) => r.path)).toEqual([
      "/v1/finance/search",
      "/v1/finance/search",
      "/v8/finance/chart/AAPL",
      "/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL",
    ]);
    expect(api.requests[0].query).toMatchObject({ q: "Apple", quotesCount: "6", newsCount: "10" });
    expect(api.requests[1].query).toMatchObject({ q: "AAPL", quotesCount: "0", newsCount: "10" });
    expect(api.requests[2].query).toEqual({ range: "1mo", interval: "1d", includePrePost: "false", events: "div|split" });
    const types = api.requests[3].query.type.split(",");
    expect(types).toHaveLength(28);
    expect(types.slice(0, 3)).toEqual(["annualTotalAssets", "annualCurrentAssets", "annualCashAndCashEquivalents"]);
    expect(types).toContain("quarterlyOrdinarySharesNumber");
    expect(api.requests[3].query.symbol).toBe("AAPL");
    expect(api.requests[0].headers["user-agent"]).toMatch(/^Mozilla\/5\.0/);
    expect(references).toEqual([]);
  });

  it("asks only for what its flags need", async () => {
    const api = await yahooApi();
    const { ctx } = toolContext({ params: { info: false, news: false, cash_flow_statement: true }, endpoints: { YahooFinance: { baseURL: api.base } } });
    const output = await yahoo.run({ stock_code: "aapl" }, ctx);
    expect(api.requests.map((r) => r.path)).toEqual(["/v1/finance/search", "/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL"]);
    expect(api.requests[0].query.newsCount).toBe("0");
    expect(output.report).toBe("# Cash flow statement:\nNo data.\n\n\n# Quarterly cash flow statement:\nNo data.\n");
  });

  it("says the earnings calendar is not available, where RAGFlow puts it", async () => {
    const api = await yahooApi();
    const { ctx } = toolContext({ params: { info: false, news: false, financials: true }, endpoints: { YahooFinance: { baseURL: api.base } } });
    const output = await yahoo.run({ stock_code: "AAPL" }, ctx);
    expect(output.report).toBe(
      "# Calendar:\nNot available: Yahoo Finance serves the earnings calendar only to signed-in sessions (quoteSummary), and this tool reads its keyless endpoints.\n",
    );
  });

  it("a ticker Yahoo has no prices for is a clear error; an unknown name too", async () => {
    const api = await yahooApi();
    const { ctx } = toolContext({ params: { news: false }, endpoints: { YahooFinance: { baseURL: api.base } } });
    await expect(yahoo.run({ stock_code: "ZZZZ" }, ctx)).rejects.toThrow(`YahooFinance: ${api.host} has no price data for ZZZZ: No data found, symbol may be delisted`);
    await expect(yahoo.run({ stock_code: "a company nobody knows" }, ctx)).rejects.toThrow(
      'YahooFinance found no stock for "a company nobody knows": give a ticker such as AAPL or 0700.HK',
    );
  });

  it("an empty stock code gives an empty report and sends nothing", async () => {
    const api = await yahooApi();
    const { ctx } = toolContext({ endpoints: { YahooFinance: { baseURL: api.base } } });
    expect(await yahoo.run({ stock_code: "" }, ctx)).toEqual({ formalized_content: "", report: "" });
    expect(api.requests).toEqual([]);
  });

  it("offers RAGFlow's function schema", () => {
    const schema = yahoo.schema({});
    expect(schema.function.name).toBe("yahoo_finance");
    expect(schema.function.parameters).toEqual({
      type: "object",
      properties: { stock_code: { type: "string", description: "The stock code or company name." } },
      required: ["stock_code"],
    });
  });
});

describe("YahooFinance report pieces", () => {
  it("picks the symbol spelled like the code, else the first hit, else a ticker-like code", () => {
    expect(pickSymbol("msft", ["MSFT.MX", "MSFT"])).toBe("MSFT");
    expect(pickSymbol("Microsoft", ["MSFT", "MSFT.MX"])).toBe("MSFT");
    expect(pickSymbol("0700.hk", [])).toBe("0700.HK");
    expect(pickSymbol("no such company", [])).toBeUndefined();
  });

  it("formats numbers without float noise and names statement lines as yfinance does", () => {
    expect([formatNumber(189.99000549316406), formatNumber(52280100), formatNumber(null), formatNumber(-0.5)]).toEqual(["189.99", "52280100", "", "-0.5"]);
    expect([lineLabel("TotalRevenue"), lineLabel("BasicEPS"), lineLabel("EBITDA"), lineLabel("TotalLiabilitiesNetMinorityInterest")]).toEqual([
      "Total Revenue",
      "Basic EPS",
      "EBITDA",
      "Total Liabilities Net Minority Interest",
    ]);
  });

  it("escapes pipes and newlines in table cells", () => {
    expect(markdownTable(["a"], [["x|y\nz"]])).toBe("| a |\n|:---|\n| x\\|y z |");
  });

  it("shows at most four annual periods, newest first", () => {
    const data = new Map([["annualNetIncome", ["2019", "2020", "2021", "2022", "2023"].map((y, i) => ({ asOfDate: `${y}-09-30`, value: i }))]]);
    expect(statementSection("Income statement", data, ["NetIncome"], "annual")).toBe(
      "# Income statement:\n|  | 2023-09-30 | 2022-09-30 | 2021-09-30 | 2020-09-30 |\n|:---|:---|:---|:---|:---|\n| Net Income | 4 | 3 | 2 | 1 |\n",
    );
  });
});

describe("YahooFinance as a canvas node", () => {
  const dsl = (params: Record<string, unknown>) => toolCanvas("YahooFinance", "YahooFinance:Stock", { stock_code: "sys.query", ...params }, "{YahooFinance:Stock@report}");

  it("needs no key: reports on the stock in sys.query", async () => {
    const api = await yahooApi();
    const events = await runToolCanvas(dsl({ news: false }), { endpoints: { YahooFinance: { baseURL: api.base } } }, "AAPL");
    expect(finished(events).error).toBeUndefined();
    expect(messages(events)).toEqual([INFO]);
    expect(nodeFinished(events, "YahooFinance:Stock").outputs.report).toBe(INFO);
  });

  it("with no network: the error naming the host, or the default value with exception_method comment", async () => {
    const port = await closedPort();
    const endpoints = { YahooFinance: { baseURL: `http://127.0.0.1:${port}` } };
    const failed = await runToolCanvas(dsl({}), { endpoints }, "AAPL");
    expect(unavailableError(failed, "YahooFinance:Stock")).toContain(`YahooFinance could not reach 127.0.0.1:${port}: the connection was refused (ECONNREFUSED)`);
    const commented = await runToolCanvas(dsl({ exception_method: "comment", exception_default_value: "no market data" }), { endpoints }, "AAPL");
    expect(finished(commented).error).toBeUndefined();
    expect(messages(commented)).toEqual(["no market data"]);
  });

  it("warns at validation that the calendar is not available", () => {
    const report = validateDsl(dsl({ financials: true }));
    expect(report.issues.filter((i) => i.componentId === "YahooFinance:Stock").map((i) => [i.severity, i.message])).toEqual([
      [
        "warning",
        "financials (the earnings calendar) is not available: Yahoo Finance serves it only to signed-in sessions; the report's Calendar section says so",
      ],
    ]);
  });
});
