/**
 * Reading a JSON file, with the two ways it can fail told apart for the caller's message.
 */
import { readFile } from "node:fs/promises";

type JsonFileResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** The parsed file, or the problem: "cannot be read: …" or "is not valid JSON: …". */
export async function readJsonFile(file: string): Promise<JsonFileResult> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { ok: false, problem: `cannot be read: ${(error as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: `is not valid JSON: ${(error as Error).message}` };
  }
}
