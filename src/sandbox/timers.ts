/** Timers owned by one sandbox, all cancelled when it closes (pending sleeps end at once). */
export class Timers {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  private closed = false;

  after(ms: number, fn: () => void): void {
    this.schedule(ms, fn, () => {});
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) resolve();
      else this.schedule(ms, resolve, resolve);
    });
  }

  close(): void {
    this.closed = true;
    for (const [t, onCancel] of this.pending) {
      clearTimeout(t);
      onCancel();
    }
    this.pending.clear();
  }

  private schedule(ms: number, fn: () => void, onCancel: () => void): void {
    if (this.closed) return;
    const t = setTimeout(
      () => {
        this.pending.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    this.pending.set(t, onCancel);
  }
}
