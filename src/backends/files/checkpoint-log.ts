/**
 * The checkpoint log of a file session: the lines of `.<name>.log` beside the session file, how
 * they are written and how they are read back. One JSON object per line, of three kinds:
 *
 * - a **base** line, `{"base":"<sha256 of the session file>","gen":"<generation>","at":"<ISO time>"}`,
 *   opens a generation: the checkpoints that follow that session file's content;
 * - a **checkpoint** line, `{"gen":"…","seq":N,"delta":<delta>,"events":[{"id":"<run>-<n>","event":<event>},…]}`,
 *   holds one checkpoint and the events emitted with it, so both are written by one write;
 * - an **event** line, `{"id":"<run>-<n>","event":<event>}`, holds an event logged ahead of its
 *   checkpoint (a run that logs each event as it happens), or one kept from a generation that a
 *   new base superseded (written when the log is compacted).
 *
 * The checkpoints of a session are those of the generation named by the last base line whose hash
 * is the session file's hash; every other checkpoint line only contributes its events. A line
 * counts once it ends with a newline: a final line without one is what a crash in the middle of a
 * write leaves (a torn tail) and is not read; any complete line that is not one of the three kinds
 * is a corrupt log.
 */
import { randomBytes } from "node:crypto";
import { isPlainObject } from "../../util/values.js";
import { parseEventId } from "../shared/sessions.js";
import { SnapshotCorruptError, SnapshotStoreError } from "../errors.js";
import type { CheckpointRecord, LoggedEvent, StoredEvent } from "../contracts.js";

/** Where a log is, for messages. */
export interface LogPlace {
  key: string;
  /** The session, as the store describes it (`session "k" (/dir/k.json)`). */
  session: string;
  /** The log file. */
  file: string;
}

/** What a log holds, as one read of it saw it. */
export interface ScannedLog {
  /** Bytes of complete lines: a torn tail starts here. */
  completeBytes: number;
  /** Bytes of the torn tail (a final line without its newline); 0 when there is none. */
  tornBytes: number;
  /** The generation of the session file's content, when a base line names it. */
  generation: string | undefined;
  /** That generation's checkpoints, seq 1, 2, 3…, parsed. */
  deltas: unknown[];
  /** Every event in the log, oldest first. */
  events: StoredEvent[];
}

const SHA256 = /^[0-9a-f]{64}$/;
const GENERATION = /^[0-9a-f]{1,32}$/;
const NEWLINE = 0x0a;

/** A new generation id: random, so that no two bases (not even of a deleted and re-created session) share one. */
export function newGeneration(): string {
  return randomBytes(6).toString("hex");
}

/**
 * Read a log's bytes. `baseSha` is the hash of the session file's content (undefined when only
 * the events are wanted); a corrupt line is a SnapshotCorruptError naming the log and the line.
 */
export function scanLog(bytes: Buffer, baseSha: string | undefined, place: LogPlace): ScannedLog {
  const completeBytes = bytes.lastIndexOf(NEWLINE) + 1;
  const text = bytes.subarray(0, completeBytes).toString("utf8");
  const events: StoredEvent[] = [];
  const checkpoints: Array<{ gen: string; seq: number; delta: unknown; line: number }> = [];
  let generation: string | undefined;
  let lineNumber = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end);
    start = end + 1;
    lineNumber++;
    if (line.trim() === "") continue;
    const parsed = parseLine(line, (problem) => corrupt(place, lineNumber, problem));
    if (parsed.kind === "base") {
      if (parsed.base === baseSha) generation = parsed.gen;
    } else if (parsed.kind === "checkpoint") {
      checkpoints.push({ gen: parsed.gen, seq: parsed.seq, delta: parsed.delta, line: lineNumber });
      events.push(...parsed.events);
    } else {
      events.push(parsed.event);
    }
  }
  const deltas: unknown[] = [];
  if (generation !== undefined) {
    for (const checkpoint of checkpoints) {
      if (checkpoint.gen !== generation) continue;
      if (checkpoint.seq !== deltas.length + 1) {
        throw corrupt(place, checkpoint.line, `checkpoint ${checkpoint.seq} follows checkpoint ${deltas.length} of the same base (a checkpoint is missing or repeated)`);
      }
      deltas.push(checkpoint.delta);
    }
  }
  return { completeBytes, tornBytes: bytes.length - completeBytes, generation, deltas, events };
}

type LogLine =
  | { kind: "base"; base: string; gen: string }
  | { kind: "checkpoint"; gen: string; seq: number; delta: unknown; events: StoredEvent[] }
  | { kind: "event"; event: StoredEvent };

function parseLine(line: string, fail: (problem: string) => Error): LogLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw fail(`not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(value)) throw fail("not a JSON object");
  if ("base" in value) {
    if (typeof value.base !== "string" || !SHA256.test(value.base)) throw fail(`the base line's "base" is not a SHA-256 hash`);
    if (typeof value.gen !== "string" || !GENERATION.test(value.gen)) throw fail(`the base line's "gen" is not a generation id`);
    return { kind: "base", base: value.base, gen: value.gen };
  }
  if ("seq" in value) {
    const { gen, seq, delta, events } = value;
    if (typeof gen !== "string" || !GENERATION.test(gen)) throw fail(`the checkpoint's "gen" is not a generation id`);
    if (!Number.isInteger(seq) || (seq as number) < 1) throw fail(`the checkpoint's "seq" is not a whole number from 1`);
    if (!("delta" in value)) throw fail(`checkpoint ${String(seq)} has no "delta"`);
    if (!Array.isArray(events)) throw fail(`checkpoint ${String(seq)} has no "events" list`);
    return { kind: "checkpoint", gen, seq: seq as number, delta, events: events.map((event) => checkEvent(event, fail)) };
  }
  if ("id" in value) return { kind: "event", event: checkEvent(value, fail) };
  throw fail(`not a checkpoint log line (expected a base, a checkpoint or an event)`);
}

function checkEvent(value: unknown, fail: (problem: string) => Error): StoredEvent {
  if (!isPlainObject(value) || !parseEventId(value.id)) throw fail(`an event's id is not <run>-<n>: ${JSON.stringify(isPlainObject(value) ? value.id : value)}`);
  if (!isPlainObject(value.event)) throw fail(`event ${String(value.id)} is not a JSON object`);
  return { id: value.id as string, event: value.event };
}

function corrupt(place: LogPlace, line: number, problem: string): SnapshotCorruptError {
  return new SnapshotCorruptError(
    `${place.session}: its checkpoint log ${place.file} is corrupt at line ${line}: ${problem}. ` +
      `Nothing was changed; to start the session over, delete it (or move the log aside, losing its checkpoints and events)`,
    place.key,
  );
}

/** The base line opening a generation. */
export function baseLine(baseSha: string, generation: string, at = new Date()): string {
  return `{"base":"${baseSha}","gen":"${generation}","at":"${at.toISOString()}"}\n`;
}

/**
 * The checkpoint line of a record. The delta and the events go in as they are (readable, no
 * escaping), so each must be JSON (events: objects): what is not is refused here, before anything
 * is written. JSON text spread over several lines is put on one.
 */
export function checkpointLine(session: string, key: string, generation: string, record: CheckpointRecord): string {
  const fail = (what: string, problem: string) => new SnapshotStoreError(`${session}: checkpoint ${record.seq}: ${what} ${problem}; nothing was written`, key);
  const delta = oneLineJson(record.delta, (problem) => fail("the delta", problem));
  const events = record.events.map((event) => `{"id":"${event.id}","event":${oneLineJson(event.json, (problem) => fail(`event ${event.id}`, problem), true)}}`);
  return `{"gen":"${generation}","seq":${record.seq},"delta":${delta},"events":[${events.join(",")}]}\n`;
}

/** Event lines, for events logged ahead of their checkpoint (`logEvents`). */
export function eventLines(session: string, key: string, events: readonly LoggedEvent[]): string {
  const fail = (id: string, problem: string) => new SnapshotStoreError(`${session}: logEvents: event ${id} ${problem}; nothing was written`, key);
  return events.map((event) => `{"id":"${event.id}","event":${oneLineJson(event.json, (problem) => fail(event.id, problem), true)}}\n`).join("");
}

function oneLineJson(text: string, fail: (problem: string) => Error, mustBeObject = false): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(`is not valid JSON (${(error as Error).message})`);
  }
  if (mustBeObject && !isPlainObject(value)) throw fail("is not a JSON object");
  return /[\n\r]/.test(text) ? JSON.stringify(value) : text;
}

/**
 * The log compacted: the most recent `maxEvents` events, one per line, then the generation's base
 * line, then (for a log compacted between two bases) that generation's checkpoints, without events.
 * Undefined when nothing is kept (the log can go).
 */
export function compactedLog(events: StoredEvent[], maxEvents: number, base: string, checkpoints?: { generation: string; deltas: readonly unknown[] }): string | undefined {
  const kept = events.slice(Math.max(0, events.length - maxEvents));
  const deltas = checkpoints?.deltas ?? [];
  if (kept.length === 0 && deltas.length === 0) return undefined;
  const lines = kept.map((event) => `${JSON.stringify({ id: event.id, event: event.event })}\n`);
  const checkpointLines = deltas.map((delta, i) => `{"gen":"${checkpoints!.generation}","seq":${i + 1},"delta":${JSON.stringify(delta)},"events":[]}\n`);
  return lines.join("") + base + checkpointLines.join("");
}
