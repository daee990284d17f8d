/**
 * The components being built by the legacy conversion: converted entries in their original
 * order, helpers to add components and to re-route edges, and the notes of every change.
 */
import { isPlainObject } from "../../util/values.js";
import { freshId, replaceId, stringList, unique } from "../dsl-access.js";
import type { MigrationNote } from "../types.js";

export interface WorkEntry {
  name: string;
  params: Record<string, unknown>;
  downstream: string[];
  parent_id?: string;
  /** The display name for the editor graph (kept from the old graph, or made up for new components). */
  displayName?: string;
  /** The old component_name, for notes and for telling converted components apart. */
  legacyName?: string;
  /** Other keys of the old entry (kept, except the ones the current format recomputes). */
  extra?: Record<string, unknown>;
}

export class Workspace {
  readonly entries = new Map<string, WorkEntry>();
  readonly notes: MigrationNote[] = [];
  private readonly taken: Set<string>;

  constructor(
    readonly step: string,
    existingIds: Iterable<string>,
  ) {
    this.taken = new Set(existingIds);
  }

  get(id: string): WorkEntry | undefined {
    return this.entries.get(id);
  }

  set(id: string, entry: WorkEntry): void {
    this.entries.set(id, entry);
    this.taken.add(id);
  }

  /** A new id `Type:base` that no component has (nor had). */
  newId(type: string, base: string): string {
    return freshId(this.taken, type, base);
  }

  /** Insert a new component right after `anchor` (so the order of components stays readable). */
  insertAfter(anchor: string, id: string, entry: WorkEntry): void {
    const all = [...this.entries.entries()];
    const at = all.findIndex(([key]) => key === anchor);
    all.splice(at < 0 ? all.length : at + 1, 0, [id, entry]);
    this.entries.clear();
    for (const [key, value] of all) this.entries.set(key, value);
    this.taken.add(id);
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Components whose downstream (or branch targets) lead to `id`. */
  predecessors(id: string): string[] {
    const out: string[] = [];
    for (const [key, entry] of this.entries) if (entry.downstream.includes(id) || routeTargets(entry).includes(id)) out.push(key);
    return out;
  }

  /**
   * Every edge into `from` goes to `to` instead (downstream lists and the branch targets of
   * Categorize and Switch), except the edges of the components in `except`.
   */
  redirect(from: string, to: readonly string[], except: ReadonlySet<string> = new Set()): void {
    for (const [key, entry] of this.entries) {
      if (except.has(key)) continue;
      entry.downstream = replaceId(entry.downstream, from, to);
      rerouteBranches(entry, from, to);
    }
  }

  note(component: string | undefined, componentType: string | undefined, change: string, reason: string): void {
    this.notes.push({ step: this.step, ...(component ? { component } : {}), ...(componentType ? { componentType } : {}), change, reason });
  }
}

/** The ids a router's branches lead to (Categorize `to`, Switch `to` and `end_cpn_ids`). */
function routeTargets(entry: WorkEntry): string[] {
  const params = entry.params;
  if (entry.name === "Categorize" && isPlainObject(params.category_description)) {
    return unique(Object.values(params.category_description).flatMap((c) => (isPlainObject(c) ? stringList(c.to) : [])));
  }
  if (entry.name === "Switch") {
    const cases = Array.isArray(params.conditions) ? params.conditions.flatMap((c) => (isPlainObject(c) ? stringList(c.to) : [])) : [];
    return unique([...cases, ...stringList(params.end_cpn_ids)]);
  }
  return [];
}

function rerouteBranches(entry: WorkEntry, from: string, to: readonly string[]): void {
  const params = entry.params;
  if (entry.name === "Categorize" && isPlainObject(params.category_description)) {
    for (const category of Object.values(params.category_description)) {
      if (isPlainObject(category) && Array.isArray(category.to)) category.to = replaceId(stringList(category.to), from, to);
    }
  }
  if (entry.name === "Switch") {
    if (Array.isArray(params.conditions)) {
      for (const condition of params.conditions) {
        if (isPlainObject(condition) && Array.isArray(condition.to)) condition.to = replaceId(stringList(condition.to), from, to);
      }
    }
    if (Array.isArray(params.end_cpn_ids)) params.end_cpn_ids = replaceId(stringList(params.end_cpn_ids), from, to);
  }
}
