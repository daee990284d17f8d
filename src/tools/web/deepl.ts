/**
 * DeepL (agent/tools/deepl.py) through DeepL's v2 API, as the `deepl` client sends it:
 * POST {base}/v2/translate with `Authorization: DeepL-Auth-Key <auth_key>` and JSON
 * {text: [query], source_lang, target_lang}; the answer's translations[0].text is the output.
 * Free keys (ending ":fx") go to api-free.deepl.com, others to api.deepl.com.
 */
import { UnavailableError } from "../../components/unavailable.js";
import { isPlainObject } from "../../util/values.js";
import type { ToolContext, ToolOutput, ToolRun } from "../types.js";
import { stringField, textArgument, toolTimeoutMs } from "./args.js";
import { apiUrl, optionalApiKey, toolBaseUrl } from "./endpoint.js";
import { ApiClient } from "./http-json.js";
import { DEEPL_TIMEOUT_S } from "../timeouts.js";


function authKey(ctx: ToolContext): string {
  const own = ctx.params.auth_key;
  if (typeof own === "string" && own.trim() !== "") return own.trim();
  const configured = optionalApiKey(ctx, "DeepL");
  if (configured) return configured;
  throw new UnavailableError("DeepL has no authentication key: set auth_key on the component or tools.DeepL.apiKeyEnv in canvasflow.config.json");
}

function language(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : fallback;
}

export const runDeepL: ToolRun = async (args, ctx): Promise<ToolOutput> => {
  const text = await textArgument(args.query);
  if (text === "") return { formalized_content: "" };
  const key = authKey(ctx);
  const publicBase = key.endsWith(":fx") ? "https://api-free.deepl.com" : "https://api.deepl.com";
  const api = new ApiClient("DeepL", ctx.signal, toolTimeoutMs(ctx.params, DEEPL_TIMEOUT_S), { authorization: `DeepL-Auth-Key ${key}` });
  const request = {
    method: "POST" as const,
    url: apiUrl(toolBaseUrl(ctx, "DeepL", publicBase), "/v2/translate"),
    json: { text: [text], source_lang: language(ctx.params.source_lang, "ZH"), target_lang: language(ctx.params.target_lang, "EN-GB") },
  };
  const answer = await api.json(request);
  const first = isPlainObject(answer) && Array.isArray(answer.translations) ? answer.translations.find(isPlainObject) : undefined;
  if (!first) throw api.unexpected(request, "a translations list");
  return { formalized_content: stringField(first.text) };
};
