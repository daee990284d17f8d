/**
 * Pausing from inside a component (E2 of canvasflow/graph, LangGraph's `interrupt()`): the
 * component calls `ctx.interrupt(value)`. With a resume value for that call, it gets it back and
 * goes on; without one, the call throws an InterruptSignal, the runner reports the component as
 * interrupted (not failed), the rest of its batch settles, and the run pauses showing `value`.
 * On resume (`run({ inputs: { resume } })`) the component runs again from its start: its k-th
 * `interrupt()` returns the k-th resume value, as in LangGraph.
 */

/** A pending interrupt: which call of which component, and what it showed. */
export interface InterruptInfo {
  /** `<component output key>:<k>`: the k-th interrupt() of that execution. */
  readonly id: string;
  readonly component_id: string;
  readonly value: unknown;
}

/** Thrown by ctx.interrupt() when no resume value is there yet; the runner catches it. */
export class InterruptSignal extends Error {
  constructor(readonly info: InterruptInfo) {
    super(`interrupted: ${info.id}`);
    this.name = "InterruptSignal";
  }
}

/** Where a component's resume values live in the run's component state (kept while paused, snapshotted). */
export function resumeSlot(outputKey: string): string {
  return `${outputKey}!resume`;
}

/**
 * The resume value meant for interrupt `id`, from a run's `inputs.resume`: an object keyed by
 * interrupt ids gives each its own (LangGraph's `Command({ resume: { [id]: value } })`);
 * anything else is the value for the first pending interrupt (see placeResumeValues).
 */
export function resumeValueFor(resume: unknown, id: string, pendingIds: readonly string[]): { found: boolean; value?: unknown } {
  if (resume !== null && typeof resume === "object" && !Array.isArray(resume) && pendingIds.length > 0) {
    const byId = resume as Record<string, unknown>;
    if (pendingIds.some((pending) => Object.hasOwn(byId, pending))) {
      return Object.hasOwn(byId, id) ? { found: true, value: byId[id] } : { found: false };
    }
  }
  return { found: true, value: resume };
}

/**
 * Hand a resumed run's `inputs.resume` to the interrupts the run paused for, before anything
 * runs: each value joins its component's resume slot in `componentState`, where the component's
 * k-th interrupt() finds it when it runs again. Being part of the run state from the run's start,
 * the values are in its first checkpoint, so a run continued after its process died has them
 * too. A plain value goes to the first pending interrupt (in the order user_inputs listed them);
 * an object keyed by interrupt ids to each interrupt it names.
 */
export function placeResumeValues(componentState: Record<string, unknown>, interrupts: readonly Pick<InterruptInfo, "id">[], resume: unknown): void {
  const ids = interrupts.map((i) => i.id);
  let plainGiven = false;
  for (const id of ids) {
    const given = resumeValueFor(resume, id, ids);
    if (!given.found) continue;
    if (given.value === resume) {
      if (plainGiven) continue;
      plainGiven = true;
    }
    // `<output key>:<k>`: the k-th interrupt waits once the k before it have their values.
    const parts = /^(.+):(\d+)$/.exec(id);
    if (!parts) continue;
    const slot = resumeSlot(parts[1]);
    const kept = componentState[slot];
    const values = Array.isArray(kept) ? kept : [];
    if (values.length === Number(parts[2])) componentState[slot] = [...values, given.value];
  }
}
