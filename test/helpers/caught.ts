/** The error `fn` throws; a test failure when it throws none. */
export function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}
