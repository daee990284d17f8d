/**
 * Stock market tools (agent/tools/{akshare,wencai,yahoofinance}.py). WenCai and YahooFinance
 * return a Markdown `report`; AkShare returns news as `formalized_content`.
 */
import { positiveInteger } from "../components/param-checks.js";
import { defineTool } from "./define-tool.js";

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
  meta: { stock_code: { default: "{sys.query}" } },
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
  timeoutSeconds: 60,
  primaryOutput: "report",
});
