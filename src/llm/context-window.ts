/**
 * How many tokens a model's context window holds: `maxContextTokens` from its route in the config,
 * else this table of known models (matched on the model name, longest prefix first), else 8192
 * (RAGFlow's default for a model it knows nothing about).
 */
export const DEFAULT_CONTEXT_TOKENS = 8192;

/** Published context windows, by model-name prefix (lower case, provider prefixes dropped). */
const KNOWN_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "gpt-5": 400_000,
  "gpt-4.1": 1_047_576,
  "gpt-4o": 128_000,
  "chatgpt-4o": 128_000,
  "gpt-4-turbo": 128_000,
  "gpt-4-1106": 128_000,
  "gpt-4-0125": 128_000,
  "gpt-4-32k": 32_768,
  "gpt-4": 8_192,
  "gpt-3.5-turbo": 16_385,
  "gpt-oss": 131_072,
  o1: 200_000,
  o3: 200_000,
  "o4-mini": 200_000,
  "deepseek-chat": 65_536,
  "deepseek-reasoner": 65_536,
  "deepseek-v3": 65_536,
  "deepseek-r1": 65_536,
  "claude-": 200_000,
  "gemini-1.5": 1_048_576,
  "gemini-2": 1_048_576,
  "qwen-max": 32_768,
  "qwen-plus": 131_072,
  "qwen-turbo": 1_000_000,
  "qwen2.5": 32_768,
  qwen3: 32_768,
  "moonshot-v1-8k": 8_192,
  "moonshot-v1-32k": 32_768,
  "moonshot-v1-128k": 131_072,
  "kimi-k2": 131_072,
  "glm-4": 128_000,
  "llama3.1": 131_072,
  "llama3.2": 131_072,
  "llama3.3": 131_072,
  "llama-3.1": 131_072,
  "llama-3.3": 131_072,
  llama3: 8_192,
  "mistral-large": 131_072,
  mistral: 32_768,
};

const PREFIXES = Object.keys(KNOWN_CONTEXT_WINDOWS).sort((a, b) => b.length - a.length);

/** The table's window for a model name, if it knows the model. */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().split("/").at(-1) ?? "";
  const prefix = PREFIXES.find((p) => name.startsWith(p));
  return prefix === undefined ? undefined : KNOWN_CONTEXT_WINDOWS[prefix];
}

export function contextWindow(model: { readonly model: string; readonly maxContextTokens?: number }): number {
  const configured = model.maxContextTokens;
  if (typeof configured === "number" && Number.isFinite(configured) && configured > 0) return Math.floor(configured);
  return knownContextWindow(model.model) ?? DEFAULT_CONTEXT_TOKENS;
}
