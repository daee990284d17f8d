/**
 * QWeather (agent/tools/qweather.py): GET {geo}/v2/city/lookup?location=<query>&key=… for the
 * location id, then GET {api}/v7/weather/<time_period> (type "weather"), /v7/indices/1d?type=0
 * ("indices") or /v7/air/now ("airquality") with location, key and lang. The API's own `code`
 * ("200" is success) replaces HTTP status; error_code maps codes to the user's messages.
 * Outputs are RAGFlow's: Python's repr of `now`, the `daily` entries one a line, or the indices.
 */
import { pythonStr } from "../../components/python-text.js";
import { isPlainObject } from "../../util/values.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { choice, stringField, textArgument, toolTimeoutMs } from "./args.js";
import { apiUrl, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { UnavailableError } from "../../components/unavailable.js";
import { QWEATHER_TIMEOUT_S } from "../timeouts.js";

export const QWEATHER_GEO_BASE = "https://geoapi.qweather.com";
export const QWEATHER_FREE_BASE = "https://devapi.qweather.com";
export const QWEATHER_PAID_BASE = "https://api.qweather.com";

const TIME_PERIODS = ["now", "3d", "7d", "10d", "15d", "30d"] as const;

function webKey(ctx: ToolContext): string {
  const key = ctx.params.web_apikey;
  if (typeof key === "string" && key.trim() !== "") return key.trim();
  throw new UnavailableError("QWeather has no API key: set web_apikey on the component");
}

/** "**Error** <message>" as RAGFlow reports a QWeather code other than 200. */
function codeError(ctx: ToolContext, code: string): string {
  const messages = isPlainObject(ctx.params.error_code) ? ctx.params.error_code : {};
  const mapped = messages[code];
  return `**Error** ${typeof mapped === "string" ? mapped : `QWeather API returned code ${code}.`}`;
}

export const runQWeather: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const location = await textArgument(args.query);
  if (location === "") return { formalized_content: "" };
  const key = webKey(ctx);
  const lang = typeof ctx.params.lang === "string" && ctx.params.lang !== "" ? ctx.params.lang : "zh";
  const type = choice(ctx.params.type, "type", ["weather", "indices", "airquality"], "weather");
  const paid = choice(ctx.params.user_type, "user_type", ["free", "paid"], "free") === "paid";
  const api = new ApiClient("QWeather", ctx.signal, toolTimeoutMs(ctx.params, QWEATHER_TIMEOUT_S));
  // One configured baseURL stands for both hosts (a stand-in serves /v2/city and /v7).
  const geoBase = toolBaseUrl(ctx, "QWeather", QWEATHER_GEO_BASE);
  const dataBase = toolBaseUrl(ctx, "QWeather", paid ? QWEATHER_PAID_BASE : QWEATHER_FREE_BASE);

  const lookup = { url: apiUrl(geoBase, "/v2/city/lookup", { location, key }) };
  const found = await api.json(lookup);
  if (!isPlainObject(found)) throw api.unexpected(lookup, "a JSON object");
  if (String(found.code) !== "200") return { formalized_content: codeError(ctx, String(found.code)) };
  const first = Array.isArray(found.location) ? found.location.find(isPlainObject) : undefined;
  if (!first) return { formalized_content: codeError(ctx, "404") };
  const id = stringField(first.id);

  const path =
    type === "weather" ? `/v7/weather/${choice(ctx.params.time_period, "time_period", TIME_PERIODS, "now")}` : type === "indices" ? "/v7/indices/1d" : "/v7/air/now";
  const request = { url: apiUrl(dataBase, path, { ...(type === "indices" ? { type: 0 } : {}), location: id, key, lang }) };
  const answer = await api.json(request);
  if (!isPlainObject(answer)) throw api.unexpected(request, "a JSON object");
  if (String(answer.code) !== "200") return { formalized_content: codeError(ctx, String(answer.code)) };
  const daily = Array.isArray(answer.daily) ? answer.daily.filter(isPlainObject) : [];
  if (type === "indices") {
    const lines = daily.map((d) => `${stringField(d.name)}: ${stringField(d.category)}, ${stringField(d.text)}`);
    return { formalized_content: `${stringField(daily[0]?.date)}\n${lines.join("\n")}` };
  }
  if (type === "weather" && ctx.params.time_period !== undefined && ctx.params.time_period !== "now") return { formalized_content: daily.map((d) => pythonStr(d)).join("\n") };
  return { formalized_content: pythonStr(answer.now ?? {}) };
};
