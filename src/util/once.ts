/**
 * An async action that runs at most once: the first call runs it (and settles as it does), later
 * calls do nothing and resolve at once, without waiting for the first. For a release that more
 * than one path reaches (a turn's events ending, the turn given up before they started), so the
 * session, its claim and its admission slots are let go exactly once.
 */
export function once(action: () => Promise<void>): () => Promise<void> {
  let called = false;
  return async () => {
    if (called) return;
    called = true;
    await action();
  };
}
