/**
 * Page crawling, translation and weather tools (agent/tools/{crawler,deepl,qweather}.py).
 */
import { credential, oneOfCodes } from "../components/param-checks.js";
import { DEEPL_SOURCE_LANGUAGES, DEEPL_TARGET_LANGUAGES, QWEATHER_LANGUAGES } from "./codes.js";
import { defineTool } from "./define-tool.js";

export const Crawler = defineTool({
  name: "Crawler",
  // query: the absolute URL of the page to crawl.
  meta: { query: { default: "{sys.query}" } },
  defaults: { proxy: null, extract_type: "markdown" },
  timeoutSeconds: 600,
});

export const DeepL = defineTool({
  name: "DeepL",
  meta: { query: { default: "{sys.query}" } },
  defaults: { auth_key: "", source_lang: "ZH", target_lang: "EN-GB" },
  timeoutSeconds: 12,
  check: (params) => [
    ...credential(params, "auth_key", "the DeepL authentication key"),
    ...oneOfCodes(params, "source_lang", DEEPL_SOURCE_LANGUAGES, "DeepL source language"),
    ...oneOfCodes(params, "target_lang", DEEPL_TARGET_LANGUAGES, "DeepL target language"),
  ],
});

export const QWeather = defineTool({
  name: "QWeather",
  // query: the city or location to look up.
  meta: { query: { default: "{sys.query}" } },
  defaults: { web_apikey: "", lang: "zh", type: "weather", user_type: "free", time_period: "now", error_code: {} },
  timeoutSeconds: 12,
  check: (params) => [...credential(params, "web_apikey", "the QWeather API key"), ...oneOfCodes(params, "lang", QWEATHER_LANGUAGES, "QWeather language")],
});
