/**
 * A component that cannot do its work in this environment: no API key, no network, no knowledge
 * base or database configured. Such a failure is not the canvas's fault, so it does not end the
 * run: inside an Agent the model reads it as the tool's result; as a canvas node the run records
 * it (node_finished.error and the `_ERROR` output, with the message as the main output) and goes
 * on downstream — unless exception_method routes or replaces it. It is never retried.
 */
export class UnavailableError extends Error {
  readonly unavailable = true;

  constructor(message: string) {
    super(message);
    this.name = "UnavailableError";
  }
}

export function isUnavailable(error: unknown): boolean {
  return error instanceof UnavailableError || (error !== null && typeof error === "object" && (error as { unavailable?: unknown }).unavailable === true);
}
