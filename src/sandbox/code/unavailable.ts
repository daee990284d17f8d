/**
 * Code that cannot run here because no sandbox can hold it (no bubblewrap, no user namespaces, no
 * interpreter). Like the components' UnavailableError (which it matches through its `unavailable`
 * mark, without the sandbox importing the components), it is not the canvas's fault: the run
 * records it and goes on, and it is never retried.
 */
export class SandboxUnavailableError extends Error {
  readonly unavailable = true;

  constructor(message: string) {
    super(message);
    this.name = "SandboxUnavailableError";
  }
}
