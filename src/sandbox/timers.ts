/** Timers owned by one sandbox, all cancelled when it closes. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private closed = false;

  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(
      () => {
        this.pending.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    this.pending.add(t);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) resolve();
      else this.after(ms, resolve);
    });
  }

  close(): void {
    this.closed = true;
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}
