/**
 * Params as the builder takes them (references and `text` templates among plain values) and as
 * the DSL stores them (plain JSON): `writtenParams` turns one into the other, `referencesIn`
 * lists the references with the JSON pointer of the param that holds each.
 */
import { isPlainObject } from "../util/values.js";
import { isRef, Text, type Ref } from "./references.js";

/** A param type as the builder accepts it: wherever the DSL takes a text, a reference or a `text` template too. */
export type Writable<T> = T extends string
  ? string extends T
    ? T | Ref | Text
    : T
  : T extends readonly (infer Item)[]
    ? Writable<Item>[]
    : T extends object
      ? { [K in keyof T]: Writable<T[K]> }
      : T;

/** The params as the DSL stores them: a reference becomes its bare selector, a `text` its template. */
export function writtenParams(value: unknown): unknown {
  if (isRef(value)) return value.selector;
  if (value instanceof Text) return value.toString();
  if (Array.isArray(value)) return value.map(writtenParams);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, writtenParams(item)]));
  return value;
}

/** A JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Every reference in `value`, alone or inside a `text`, with the pointer of the value that holds it. */
export function referencesIn(value: unknown, pointer: string, found: Array<{ ref: Ref; pointer: string }> = []): Array<{ ref: Ref; pointer: string }> {
  if (isRef(value)) found.push({ ref: value, pointer });
  else if (value instanceof Text) for (const ref of value.references) found.push({ ref, pointer });
  else if (Array.isArray(value)) value.forEach((item, index) => referencesIn(item, `${pointer}/${index}`, found));
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) referencesIn(item, `${pointer}/${pointerSegment(key)}`, found);
  return found;
}
