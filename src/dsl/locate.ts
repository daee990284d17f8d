/**
 * Where in a component's params something appears, as JSON pointers, so a validation issue can
 * point at the exact string (e.g. `/content/0`) rather than at the params object.
 */
import type * as JsonPathPlus from "jsonpath-plus";
import { lazyPackage } from "../util/optional-package.js";

// Loaded when validation first has something to point at.
const jsonPathPlus = lazyPackage<typeof JsonPathPlus>("jsonpath-plus", "locating a value in a DSL");

/** JSON pointers (relative to `root`) of every string value that `matches` accepts, in document order. */
export function locateStrings(root: object, matches: (text: string) => boolean): string[] {
  const found = jsonPathPlus().JSONPath({ path: "$..*", json: root, resultType: "all" }) as Array<{ value: unknown; pointer: string }>;
  return found.filter((hit) => typeof hit.value === "string" && matches(hit.value)).map((hit) => hit.pointer);
}
