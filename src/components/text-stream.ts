/**
 * A text output that arrives in chunks (an LLM answer, a Message being streamed).
 *
 * RAGFlow keeps a `functools.partial` in the output; a downstream Message consumes it and the
 * producer's `node_finished` waits until then. Here the stream is an object with the same
 * contract: it is consumed once, every consumer after the first reads the buffered text, and
 * when it ends `onDone` lets the pool replace the output with the plain string.
 */

/** Chunks that mark a model's reasoning; a Message turns them into `start_to_think`/`end_to_think`. */
export const THINK_START = "<think>";
export const THINK_END = "</think>";

export class TextStream implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private finished = false;
  private failure: unknown;
  private iterator: AsyncIterator<string> | Iterator<string> | undefined;
  private pulling: Promise<void> | undefined;
  private readonly doneCallbacks: Array<(text: string) => void> = [];

  constructor(private readonly source: AsyncIterable<string> | Iterable<string>) {}

  /** A stream whose whole text is already known. */
  static of(text: string): TextStream {
    return new TextStream([text]);
  }

  /** True once the source ended (successfully or not). */
  get done(): boolean {
    return this.finished;
  }

  /** The text received so far (all of it once `done`). Think markers are kept. */
  get text(): string {
    return this.chunks.join("");
  }

  /** Called once with the whole text when the stream ends without error. */
  onDone(callback: (text: string) => void): void {
    if (this.finished && this.failure === undefined) callback(this.text);
    else if (!this.finished) this.doneCallbacks.push(callback);
  }

  /**
   * Iterate the chunks. Every consumer sees every chunk from the start: the source is pulled
   * once and buffered, so a consumer that stops early never loses text for the next one.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    let index = 0;
    for (;;) {
      if (index < this.chunks.length) {
        yield this.chunks[index++];
        continue;
      }
      if (this.finished) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await this.pullOnce();
    }
  }

  /** Consume the whole stream and return its text. */
  async readAll(): Promise<string> {
    while (!this.finished) await this.pullOnce();
    if (this.failure !== undefined) throw this.failure;
    return this.text;
  }

  // Pulls are serialised so two consumers never advance the source at the same time.
  private pullOnce(): Promise<void> {
    this.pulling ??= this.pull().finally(() => {
      this.pulling = undefined;
    });
    return this.pulling;
  }

  private async pull(): Promise<void> {
    try {
      this.iterator ??=
        Symbol.asyncIterator in this.source
          ? (this.source as AsyncIterable<string>)[Symbol.asyncIterator]()
          : (this.source as Iterable<string>)[Symbol.iterator]();
      const step = await this.iterator.next();
      if (step.done) {
        this.finish();
        return;
      }
      if (typeof step.value === "string" && step.value.length > 0) this.chunks.push(step.value);
    } catch (error) {
      this.failure = error ?? new Error("stream failed");
      this.finished = true;
      this.doneCallbacks.length = 0;
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    const text = this.text;
    for (const callback of this.doneCallbacks.splice(0)) callback(text);
  }
}

export function isTextStream(value: unknown): value is TextStream {
  return value instanceof TextStream;
}
