/** forEachLimit: every item once, never more than the limit at a time, and no start once `more()` says no. */
import { describe, expect, it } from "vitest";
import { forEachLimit } from "../../src/async/pool.js";

describe("forEachLimit", () => {
  it("runs every item once with at most `limit` in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => setImmediate(resolve));
      seen.push(n);
      inFlight -= 1;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it("starts nothing more once more() is false, and rejects with the first error", async () => {
    const started: number[] = [];
    await forEachLimit(
      [1, 2, 3, 4],
      1,
      async (n) => void started.push(n),
      () => started.length < 2,
    );
    expect(started).toEqual([1, 2]);
    await expect(
      forEachLimit([1, 2], 2, async (n) => {
        if (n === 2) throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
  });
});
