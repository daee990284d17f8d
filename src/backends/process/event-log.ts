/**
 * A session's event log in this process's memory, kept with as few objects as it can: a durable
 * run keeps every event it logs, and each kept object costs the garbage collector a copy or two
 * and a mark on every full collection, which was most of what a durable run in memory cost over
 * a plain one.
 *
 * - Events are kept as the run handed them over (`LoggedEvent.event`, read-only), else as their
 *   JSON text; no wrapper per entry.
 * - Ids are kept as numbers, run × 2^26 + n, in one list of doubles (no string per id), when the
 *   id is written the usual way (no leading zeros) and fits; any other id is kept as its text.
 */
import type { LoggedEvent } from "../contracts.js";

const N_RANGE = 2 ** 26;
const RUN_RANGE = 2 ** 27;

export class InProcessEventLog {
  /** Each id as a number (see idNumber), or NaN where its text is in `texts`. */
  private readonly numbers: number[] = [];
  /** Ids kept as text, by position counted from the log's first event ever. */
  private readonly texts = new Map<number, string>();
  private readonly items: Array<object | string> = [];
  /** Events trimmed off the front so far. */
  private dropped = 0;
  /** The last id as given: every append compares with it, so it is kept rather than rebuilt. */
  private last: string | undefined;

  get length(): number {
    return this.items.length;
  }

  append(events: readonly LoggedEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const number = idNumber(event.id);
      if (Number.isNaN(number)) this.texts.set(this.dropped + this.numbers.length, event.id);
      this.numbers.push(number);
      // A lazily serialized event is turned into JSON only if it is read.
      this.items.push(event.event ?? event.json);
    }
    if (events.length > 0) this.last = events[events.length - 1].id;
  }

  /** The id of the event at `index` (0: the oldest kept). */
  idAt(index: number): string {
    const number = this.numbers[index];
    if (Number.isNaN(number)) return this.texts.get(this.dropped + index)!;
    const n = number % N_RANGE;
    return `${(number - n) / N_RANGE}-${n}`;
  }

  lastId(): string | undefined {
    return this.last;
  }

  /** The event at `index`, as a fresh copy of what its JSON text gives. */
  eventAt(index: number): Record<string, unknown> {
    const item = this.items[index];
    return JSON.parse(typeof item === "string" ? item : JSON.stringify(item)) as Record<string, unknown>;
  }

  /** Keep only the most recent `keep` events. */
  keepLast(keep: number): void {
    const drop = this.items.length - keep;
    if (drop <= 0) return;
    this.numbers.splice(0, drop);
    this.items.splice(0, drop);
    this.dropped += drop;
    if (this.items.length === 0) this.last = undefined;
    for (const position of this.texts.keys()) if (position < this.dropped) this.texts.delete(position);
  }
}

/** `<run>-<n>` as run × 2^26 + n, or NaN when the id is not written that way or does not fit. */
function idNumber(id: string): number {
  const dash = id.indexOf("-");
  const run = digits(id, 0, dash);
  const n = digits(id, dash + 1, id.length);
  return run < RUN_RANGE && n < N_RANGE ? run * N_RANGE + n : Number.NaN;
}

/** The decimal number in id[from, to), or NaN when it is empty, has a leading zero or another character. */
function digits(id: string, from: number, to: number): number {
  if (to <= from || to - from > 9 || (id.charCodeAt(from) === 48 && to - from > 1)) return Number.NaN;
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
}
