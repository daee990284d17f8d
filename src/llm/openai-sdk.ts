/**
 * The `openai` package, imported when the first request is made: it is about 500 modules, and a
 * program that imports canvasflow, or runs a canvas without an LLM, should not pay for them.
 */
import type OpenAI from "openai";
import type { ClientOptions } from "openai";

export type OpenAISdk = typeof import("openai");

let sdk: Promise<OpenAISdk> | undefined;

/** The package's module, loaded once (the ESM build, so its error classes are the ones a caller's client throws). */
export function loadOpenAISdk(): Promise<OpenAISdk> {
  sdk ??= import("openai");
  return sdk;
}

/** A client made on first use: its base URL is known now, the package is loaded when a request needs it. */
export class LazyOpenAIClient {
  private client: Promise<OpenAI> | undefined;

  constructor(private readonly options: ClientOptions & { baseURL: string }) {}

  get baseURL(): string {
    return this.options.baseURL;
  }

  get(): Promise<OpenAI> {
    this.client ??= loadOpenAISdk().then(({ default: Client }) => new Client(this.options));
    return this.client;
  }
}
