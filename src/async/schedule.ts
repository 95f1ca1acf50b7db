/**
 * When to poll next. The interval grows with the time already waited (a fixed fraction of it),
 * so the expected lag after completion stays a constant share of the task's duration while the
 * number of requests grows only with the logarithm of that duration.
 *
 * | mode                       | interval                       | min    | cap   | why                                                             |
 * | -------------------------- | ------------------------------ | ------ | ----- | --------------------------------------------------------------- |
 * | task, batch (polling only) | 25% of elapsed                 | 150 ms | 3 s   | lag ~ 8% of the duration on average, p95 < 1 s for tasks < 5 s   |
 * | crawl (polling only)       | 25% of elapsed                 | 250 ms | 5 s   | ≥ 2 s (the documented crawl cadence) once running for 8 s        |
 * | with a callback            | 100% of elapsed (doubling)     | 1 s    | 10 s  | the callback brings the lag down; polls are only a safety net    |
 *
 * The trade-off (measured by bench/client.mjs): with polling alone, a median lag of 250 ms for
 * 1–5 s tasks needs about 25 requests for a 30 s task, and 10 requests for a 30 s task gives a
 * median lag of about 1 s. Polling alone favours the lag (an agent waits on it); a callback
 * (`completion`) gets both: a lag of a few ms and about 6 requests for a 30 s task.
 */
export type TargetKind = "task" | "batch" | "crawl";

interface Rule {
  fraction: number;
  minMs: number;
  maxMs: number;
}

const POLLING: Record<TargetKind, Rule> = {
  task: { fraction: 0.25, minMs: 150, maxMs: 3_000 },
  batch: { fraction: 0.25, minMs: 150, maxMs: 3_000 },
  crawl: { fraction: 0.25, minMs: 250, maxMs: 5_000 },
};

const WITH_CALLBACK: Rule = { fraction: 1, minMs: 1_000, maxMs: 10_000 };

/** Delay before the next poll, given how long the wait has run. */
export function nextPollDelayMs(kind: TargetKind, elapsedMs: number, withCallback = false): number {
  const rule = withCallback ? WITH_CALLBACK : POLLING[kind];
  return Math.round(Math.min(rule.maxMs, Math.max(rule.minMs, rule.fraction * Math.max(0, elapsedMs))));
}

/** Delay before the first poll (work is never done the instant it is submitted). */
export function firstPollDelayMs(kind: TargetKind, withCallback = false): number {
  return nextPollDelayMs(kind, 0, withCallback);
}
