/**
 * Where in a component's params something appears, as JSON pointers, so a validation issue can
 * point at the exact string (e.g. `/content/0`) rather than at the params object.
 */
import { JSONPath } from "jsonpath-plus";

/** JSON pointers (relative to `root`) of every string value that `matches` accepts, in document order. */
export function locateStrings(root: object, matches: (text: string) => boolean): string[] {
  const found = JSONPath({ path: "$..*", json: root, resultType: "all" }) as Array<{ value: unknown; pointer: string }>;
  return found.filter((hit) => typeof hit.value === "string" && matches(hit.value)).map((hit) => hit.pointer);
}
