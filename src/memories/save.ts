/**
 * Writing to memories (RAGFlow Message._save_to_memory): when a Message's `memory_ids` names
 * memories, each gets the exchange once the message is complete — the user's query and the
 * message shown — as `User Input: …\nAgent Response: …`, with the user id (`user_id`: a literal,
 * or a `{reference}`), the agent id and the session's task id.
 */
import { UnavailableError } from "../components/unavailable.js";
import type { ComponentContext, Params } from "../components/types.js";
import { stringifyValue } from "../refs/template.js";
import { runMemories, type TenantMemories } from "./scope.js";
import { checkMemoryId } from "../backends/shared/memories.js";
import { MemoryStoreError } from "../backends/errors.js";

/** The memory ids a `memory_ids` param names (blank entries dropped, duplicates once). */
export function memoryIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim()))];
}

/** The memories of a run (its tenant's); UnavailableError saying what to configure when there are none. */
export function memoryStoreOf(ctx: Pick<ComponentContext, "services">, what: string): TenantMemories {
  const memories = runMemories(ctx.services.memories);
  if (!memories) throw new UnavailableError(`${what}, but this run has no memory store: give the run a session (--session), set "memories" in canvasflow.config.json, or pass services.memories`);
  return memories;
}

/** `user_id`: a literal, or a `{reference}` read from the canvas (RAGFlow: a value matching ^{.*}$). */
export function memoryUserId(ctx: Pick<ComponentContext, "get">, params: Params): string {
  const raw = params.user_id;
  if (typeof raw !== "string" || raw.trim() === "") return "";
  const ref = /^\{(.+)\}$/.exec(raw.trim());
  if (!ref) return raw.trim();
  const value = ctx.get(ref[1].trim());
  return value === undefined || value === null ? "" : stringifyValue(value);
}

export function exchangeText(userInput: string, agentResponse: string): string {
  return `User Input: ${userInput}\nAgent Response: ${agentResponse}`;
}

/** Save the exchange to each memory the Message names. */
export async function saveToMemories(ctx: ComponentContext, content: string): Promise<void> {
  const ids = memoryIds(ctx.params && (ctx.params as Params).memory_ids);
  if (ids.length === 0) return;
  for (const id of ids) checkMemoryId(id, "memory_ids entry");
  const store = memoryStoreOf(ctx, `memory_ids names ${ids.map((id) => `"${id}"`).join(", ")}`);
  const message = {
    user_id: memoryUserId(ctx, ctx.params as Params),
    agent_id: "",
    session_id: ctx.taskId,
    content: exchangeText(ctx.query, content),
    source_key: ctx.idempotencyKey,
  };
  for (const id of ids) {
    try {
      await store.add(id, message);
    } catch (error) {
      if (error instanceof MemoryStoreError) throw new MemoryStoreError(`saving to memory "${id}" (${store.location}): ${error.message}`);
      throw error;
    }
  }
}

/** Validation of a `memory_ids` list: each entry a usable memory id (blank entries are skipped, as at run time). */
export function checkMemoryIdsParam(value: unknown): Array<{ pointer: string; message: string }> {
  // Not a list at all: the component's params schema reports it.
  if (!Array.isArray(value)) return [];
  const problems: Array<{ pointer: string; message: string }> = [];
  value.forEach((entry, i) => {
    if (typeof entry === "string" && entry.trim() === "") return;
    try {
      checkMemoryId(entry, `memory_ids[${i}]`);
    } catch (error) {
      problems.push({ pointer: `/memory_ids/${i}`, message: (error as Error).message });
    }
  });
  return problems;
}
