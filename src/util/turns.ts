/**
 * One-at-a-time sections per key within this process, in the order they were asked for: each
 * waits for the one before it, however long it takes. Keys whose queue has drained are dropped.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async run<R>(key: string, action: () => Promise<R>): Promise<R> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    this.tails.set(key, mine);
    await before;
    try {
      return await action();
    } finally {
      finish();
      if (this.tails.get(key) === mine) this.tails.delete(key);
    }
  }
}
