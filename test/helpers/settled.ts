/**
 * Whether `promise` has settled (resolved or rejected) once `waitMs` has passed: for asserting
 * that something still waits, and that it went on once what held it let go.
 */
export async function settled(promise: Promise<unknown>, waitMs = 20): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  return done;
}
