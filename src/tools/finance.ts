/**
 * Stock market tools (agent/tools/{akshare,wencai,yahoofinance}.py). WenCai and YahooFinance
 * return a Markdown `report`; AkShare returns news as `formalized_content`.
 */
import { positiveInteger } from "../components/param-checks.js";
import type { ParamProblem, Params } from "../components/types.js";
import { defineTool } from "./define-tool.js";
import { runYahooFinance, YAHOO_FINANCE_TIMEOUT_S } from "./web/yahoo-finance.js";

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
  meta: { query: { default: "{sys.query}" } },
  defaults: { top_n: 10 },
  timeoutSeconds: 12,
  check: (params) => positiveInteger(params, "top_n"),
});

export const WenCai = defineTool({
  name: "WenCai",
  meta: { query: { default: "{sys.query}" } },
  defaults: { top_n: 10, query_type: "stock" },
  timeoutSeconds: 12,
  primaryOutput: "report",
  check: (params) => positiveInteger(params, "top_n"),
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
  run: runYahooFinance,
});
