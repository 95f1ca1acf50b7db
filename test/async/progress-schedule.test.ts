import { describe, expect, it } from "vitest";
import { ProgressTracker } from "../../src/async/progress.js";
import { firstPollDelayMs, nextPollDelayMs } from "../../src/async/schedule.js";

describe("ProgressTracker", () => {
  it("is strictly increasing even when the count does not move", () => {
    const tracker = new ProgressTracker();
    const values = [0, 0, 0, 3, 3, 2, 7, 7].map((n) => tracker.next(n, 10, "m").progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
  });

  it("stays strictly increasing past 2^52, where half a unit is below a double's precision", () => {
    const tracker = new ProgressTracker();
    const values = [4596293154360416, 4596293154360417, 3, 2 ** 60, 0].map(
      (n, i) => tracker.next(n, i === 2 ? 1 : undefined, "m").progress,
    );
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
  });

  it("stays finite at the top of the double range (a count of Number.MAX_VALUE, twice)", () => {
    const tracker = new ProgressTracker();
    const values = [Number.MAX_VALUE, Number.MAX_VALUE, Number.MAX_VALUE].map(
      (n) => tracker.next(n, undefined, "m").progress,
    );
    for (const v of values) expect(Number.isFinite(v)).toBe(true);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
  });

  it("stays below the total until the final report, which is the total", () => {
    const tracker = new ProgressTracker();
    expect(tracker.next(10, 10, "m").progress).toBeLessThan(10);
    expect(tracker.next(10, 10, "m").progress).toBeLessThan(10);
    expect(tracker.next(10, 10, "m", true)).toEqual({ progress: 10, total: 10, message: "m" });
  });

  it("reports no total when it is unknown", () => {
    const tracker = new ProgressTracker();
    expect(tracker.next(1.5, undefined, "m")).toEqual({ progress: 1.5, message: "m" });
  });
});

describe("poll schedule", () => {
  /** Poll times (ms) of a wait that runs `horizonMs`. */
  function pollTimes(kind: "task" | "batch" | "crawl", horizonMs: number, withCallback = false): number[] {
    const times: number[] = [];
    let t = firstPollDelayMs(kind, withCallback);
    while (t <= horizonMs) {
      times.push(t);
      t += nextPollDelayMs(kind, t, withCallback);
    }
    return times;
  }

  it("starts fast and backs off to its cap", () => {
    expect(firstPollDelayMs("task")).toBeLessThanOrEqual(200);
    const gaps = pollTimes("task", 60_000).map((t, i, all) => (i === 0 ? t : t - all[i - 1]));
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3_000);
  });

  it("polls a crawl no faster than every 2 s once it has run for 8 s", () => {
    const times = pollTimes("crawl", 60_000);
    for (let i = 1; i < times.length; i++)
      if (times[i - 1] >= 8_000) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(2_000);
  });

  it("with a callback, spends at most 7 polls on a 30-second task", () => {
    expect(pollTimes("task", 30_000, true).length).toBeLessThanOrEqual(7);
  });

  it("keeps the interval under 1.25 s while a task is younger than 5 s (p95 lag under 1 s for 1–5 s tasks)", () => {
    const times = pollTimes("task", 6_000);
    for (let i = 1; i < times.length; i++)
      if (times[i] <= 5_000) expect(times[i] - times[i - 1]).toBeLessThanOrEqual(1_250);
  });
});
