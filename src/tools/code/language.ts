/** The spelling of CodeExec's `lang`. */
import { showValue } from "../../util/values.js";

/** "python" or "javascript" for the spellings RAGFlow accepts. */
export function normalizeLanguage(lang: unknown): "python" | "javascript" {
  const low = typeof lang === "string" ? lang.trim().toLowerCase() : "";
  if (low === "python" || low === "python3") return "python";
  if (low === "javascript" || low === "nodejs") return "javascript";
  throw new Error(`lang must be "python" or "javascript", not ${showValue(lang)}`);
}
