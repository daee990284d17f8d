/**
 * Page crawling, translation and weather tools (agent/tools/{crawler,deepl,qweather}.py).
 */
import { credential, oneOfCodes } from "../components/param-checks.js";
import { DEEPL_SOURCE_LANGUAGES, DEEPL_TARGET_LANGUAGES, QWEATHER_LANGUAGES } from "./codes.js";
import { defineTool, lazyRun } from "./define-tool.js";
import { CRAWLER_TIMEOUT_S, DEEPL_TIMEOUT_S, QWEATHER_TIMEOUT_S } from "./timeouts.js";

export const Crawler = defineTool({
  name: "Crawler",
  functionName: "web_crawler",
  description: "This tool can be used to crawl a web page and return its content as HTML, Markdown, or the extracted main text.",
  meta: {
    query: {
      default: "{sys.query}",
      type: "string",
      description: "The absolute URL (including the http:// or https:// scheme) of the web page to crawl.",
      required: true,
    },
  },
  defaults: { proxy: null, extract_type: "markdown" },
  timeoutSeconds: CRAWLER_TIMEOUT_S,
  check: (params) => oneOfCodes(params, "extract_type", ["markdown", "html", "content"], "extract type"),
  run: lazyRun(() => import("./web/crawler.js"), (m) => m.runCrawler),
});

export const DeepL = defineTool({
  name: "DeepL",
  functionName: "deepl_translate",
  description: "DeepL translates text into a target language using the DeepL translation service.",
  meta: { query: { default: "{sys.query}", type: "string", description: "The text to translate.", required: true } },
  defaults: { auth_key: "", source_lang: "ZH", target_lang: "EN-GB" },
  timeoutSeconds: DEEPL_TIMEOUT_S,
  run: lazyRun(() => import("./web/deepl.js"), (m) => m.runDeepL),
  check: (params) => [
    ...credential(params, "auth_key", "the DeepL authentication key"),
    ...oneOfCodes(params, "source_lang", DEEPL_SOURCE_LANGUAGES, "DeepL source language"),
    ...oneOfCodes(params, "target_lang", DEEPL_TARGET_LANGUAGES, "DeepL target language"),
  ],
});

export const QWeather = defineTool({
  name: "QWeather",
  functionName: "qweather",
  description: "QWeather (和风天气) looks up the current weather, a multi-day forecast, life indices, or air quality for a location using the QWeather API.",
  meta: {
    query: { default: "{sys.query}", type: "string", description: "The location to look up weather for, e.g. a city name like 'Beijing' or '北京'.", required: true },
  },
  defaults: { web_apikey: "", lang: "zh", type: "weather", user_type: "free", time_period: "now", error_code: {} },
  timeoutSeconds: QWEATHER_TIMEOUT_S,
  run: lazyRun(() => import("./web/qweather.js"), (m) => m.runQWeather),
  check: (params) => [...credential(params, "web_apikey", "the QWeather API key"), ...oneOfCodes(params, "lang", QWEATHER_LANGUAGES, "QWeather language")],
});
