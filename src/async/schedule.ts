/**
 * When to poll next. The interval grows with the time already waited (a fixed fraction of it),
 * so the lag after completion stays a constant share of the work's duration while the number of
 * requests grows only with the logarithm of that duration.
 *
 * | mode                       | interval               | min    | cap   | why                                                         |
 * | -------------------------- | ---------------------- | ------ | ----- | ----------------------------------------------------------- |
 * | task, batch (polling only) | 20% of elapsed         | 150 ms | 3 s   | lag ~10% of the duration: median ≤ 250 ms, p95 < 1 s (1–5 s) |
 * | crawl (polling only)       | 25% of elapsed         | 250 ms | 5 s   | ≥ 2 s (the documented crawl cadence) once running for 8 s    |
 * | generation, research run, job run | as crawl        | 250 ms | 5 s   | minutes-long work billed per creation, not per poll         |
 * | with a callback            | 100% of elapsed (×2)   | 1 s    | 10 s  | the callback brings the lag; polls are only a safety net     |
 *
 * The trade-off, measured by bench/client.mjs: with polling alone, a median lag of 250 ms for
 * 1–5 s tasks costs about 27 requests for a 30 s task, and 10 requests for a 30 s task would mean
 * a median lag near 1 s (and seconds on long tasks). Polling alone favours the lag, which an agent
 * waits on; a callback (`completion`) gets both: a lag of tens of ms and 7 requests for 30 s.
 */
export type TargetKind = "task" | "batch" | "crawl" | "generation" | "research" | "job_run";

interface Rule {
  fraction: number;
  minMs: number;
  maxMs: number;
}

const POLLING: Record<TargetKind, Rule> = {
  task: { fraction: 0.2, minMs: 150, maxMs: 3_000 },
  batch: { fraction: 0.2, minMs: 150, maxMs: 3_000 },
  crawl: { fraction: 0.25, minMs: 250, maxMs: 5_000 },
  generation: { fraction: 0.25, minMs: 250, maxMs: 5_000 },
  research: { fraction: 0.25, minMs: 250, maxMs: 5_000 },
  job_run: { fraction: 0.25, minMs: 250, maxMs: 5_000 },
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
