/**
 * Stock market tools (agent/tools/{akshare,wencai,yahoofinance}.py). WenCai and YahooFinance
 * return a Markdown `report`; AkShare returns news as `formalized_content`.
 */
import { positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { defineTool, lazyRun } from "./define-tool.js";
import { AKSHARE_TIMEOUT_S, WENCAI_TIMEOUT_S, YAHOO_FINANCE_TIMEOUT_S } from "./timeouts.js";

/**
 * The earnings calendar (`financials`) needs a signed-in Yahoo session, which this tool does not
 * have: a canvas asking for it hears so before it runs (and the report says so too).
 */
function checkYahooFlags(params: Params): ParamProblem[] {
  if (params.financials !== true) return [];
  return [
    {
      pointer: "/financials",
      severity: "warning",
      message: "financials (the earnings calendar) is not available: Yahoo Finance serves it only to signed-in sessions; the report's Calendar section says so",
    },
  ];
}

export const AkShare = defineTool({
  name: "AkShare",
  functionName: "akshare_stock_news",
  description: "AkShare retrieves the latest news articles for a given Chinese A-share stock from East Money (东方财富).",
  meta: { query: { default: "{sys.query}", type: "string", description: "The stock symbol/code to fetch news for, e.g. '600519'.", required: true } },
  defaults: { top_n: 10 },
  timeoutSeconds: AKSHARE_TIMEOUT_S,
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/akshare.js"), (m) => m.runAkShare),
});

export const WenCai = defineTool({
  name: "WenCai",
  functionName: "iwencai",
  description: [
    "iwencai search: search platform is committed to providing hundreds of millions of investors with the most timely, accurate and comprehensive information, covering news, announcements, research reports, blogs, forums, Weibo, characters, etc.",
    "robo-advisor intelligent stock selection platform: through AI technology, is committed to providing investors with intelligent stock selection, quantitative investment, main force tracking, value investment, technical analysis and other types of stock selection technologies.",
    "fund selection platform: through AI technology, is committed to providing excellent fund, value investment, quantitative analysis and other fund selection technologies for foundation citizens.",
  ].join("\n"),
  meta: { query: { default: "{sys.query}", type: "string", description: "The question/conditions to select stocks.", required: true } },
  defaults: { top_n: 10, query_type: "stock" },
  timeoutSeconds: WENCAI_TIMEOUT_S,
  primaryOutput: "report",
  check: (params) => positiveInteger(params, "top_n"),
  run: lazyRun(() => import("./web/wencai.js"), (m) => m.runWenCai),
});

export const YahooFinance = defineTool({
  name: "YahooFinance",
  functionName: "yahoo_finance",
  description:
    "The Yahoo Finance is a service that provides access to real-time and historical stock market data. It enables users to fetch various types of stock information, such as price quotes, historical prices, company profiles, and financial news. The API offers structured data, allowing developers to integrate market data into their applications and analysis tools.",
  meta: { stock_code: { default: "{sys.query}", type: "string", description: "The stock code or company name.", required: true } },
  defaults: {
    info: true,
    history: false,
    count: false,
    financials: false,
    income_stmt: false,
    balance_sheet: false,
    cash_flow_statement: false,
    news: true,
  },
  timeoutSeconds: YAHOO_FINANCE_TIMEOUT_S,
  primaryOutput: "report",
  check: checkYahooFlags,
  run: lazyRun(() => import("./web/yahoo-finance.js"), (m) => m.runYahooFinance),
});
