/**
 * A FormatParseRequest over bytes made in a test, with its progress notes and warnings kept.
 * Limits are written out here (not imported) so each test imports only the module it tests.
 */
import type { FormatParseRequest, ParserSetup, VisionModel } from "../../../src/pipelines/parsing/contract.js";

export const TEST_LIMITS = {
  maxFileBytes: 100 * 1024 * 1024,
  maxInflatedBytes: 200 * 1024 * 1024,
  maxTextChars: 20_000_000,
  maxRows: 200_000,
};

export interface TestRequest extends FormatParseRequest {
  warnings: string[];
  notes: string[];
}

export function requestFor(
  name: string,
  bytes: Uint8Array | (() => AsyncIterable<Uint8Array>),
  setup: ParserSetup,
  options: { limits?: Partial<typeof TEST_LIMITS>; vision?: VisionModel; size?: number } = {},
): TestRequest {
  const warnings: string[] = [];
  const notes: string[] = [];
  const whole = typeof bytes === "function" ? undefined : bytes;
  const source = {
    name,
    size: options.size ?? whole?.byteLength ?? 0,
    bytes: async () => {
      if (!whole) throw new Error("this test source is a stream only");
      return whole;
    },
    stream: typeof bytes === "function" ? bytes : async function* () {
      // Pieces of 64 KiB, as a file stream would give them.
      for (let at = 0; at < whole!.byteLength; at += 65536) yield whole!.subarray(at, at + 65536);
    },
  };
  return {
    source,
    setup,
    limits: { ...TEST_LIMITS, ...options.limits },
    progress: (note) => notes.push(note.message),
    warn: (message) => warnings.push(message),
    signal: new AbortController().signal,
    vision: options.vision,
    warnings,
    notes,
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}
