/**
 * Who may run code unsandboxed. `trustCode` is for one user running their own canvases
 * (`canvasflow run --trust-code`, or a library that says so); a server and its queue workers run
 * every tenant's canvases, so they refuse it, whichever way it is given.
 */
import { isPlainObject } from "../../util/values.js";

export const UNTRUSTED_CODE_ONLY =
  "a server and its workers run every tenant's canvases as untrusted code, so scripts always run in the sandbox; trustCode is for canvasflow run on your own canvases";

/** Whether a `codeExec` service or config section asks to run code unsandboxed. */
export function trustsCode(codeExec: unknown): boolean {
  return isPlainObject(codeExec) && codeExec.trustCode === true;
}
