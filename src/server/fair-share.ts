/**
 * Per-principal limits on long work (issue 23 item 4): each principal runs at most `maxRunning`
 * long calls and MCP tasks at once on this replica; more wait in its own queue, up to
 * `maxQueued`, and past that are refused. One user's burst then holds only its own slots (and its
 * share of the API key's rate), so another user's call is delayed by a small bound, not by the
 * whole burst.
 */
import { ToolError } from "../tools/errors.js";

export interface FairShareLimits {
  /** Long calls and tasks one principal runs at once; default 4. */
  maxRunning: number;
  /** Long calls and tasks one principal may have waiting; default 100. */
  maxQueued: number;
}

export const DEFAULT_FAIR_SHARE: FairShareLimits = { maxRunning: 4, maxQueued: 100 };

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

export class FairShare {
  readonly #lanes = new Map<string, Lane>();
  readonly #limits: FairShareLimits;

  constructor(limits: Partial<FairShareLimits> = {}) {
    this.#limits = { ...DEFAULT_FAIR_SHARE, ...limits };
  }

  /**
   * A slot for `principal`'s long work, waited for in its own queue; call `release` when the work
   * ends. Rejects when the queue is full (a `ToolError`) or `signal` aborts while waiting.
   */
  async acquire(principal: string, signal: AbortSignal): Promise<() => void> {
    const lane = this.#lanes.get(principal) ?? { running: 0, waiting: [] };
    this.#lanes.set(principal, lane);
    if (lane.running >= this.#limits.maxRunning) {
      if (lane.waiting.length >= this.#limits.maxQueued) {
        throw new ToolError(
          "rate_limited",
          `You have ${lane.running} long calls running and ${lane.waiting.length} waiting on this server, the most it holds per caller: wait for some to finish (get_task lists them) and call again.`,
        );
      }
      // The releasing work hands its slot over: `running` stays as it is.
      await this.#wait(lane, signal);
    } else {
      lane.running += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.shift();
      if (next) return next();
      lane.running -= 1;
      if (lane.running === 0) this.#lanes.delete(principal);
    };
  }

  /** Long work waiting for a slot, every principal together (for `/healthz`). */
  get waiting(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.waiting.length;
    return n;
  }

  /** Long work running or waiting for `principal` (health, tests). */
  load(principal: string): { running: number; waiting: number } {
    const lane = this.#lanes.get(principal);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  #wait(lane: Lane, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener("abort", stop);
        resolve();
      };
      const stop = () => {
        const at = lane.waiting.indexOf(go);
        if (at >= 0) lane.waiting.splice(at, 1);
        reject(signal.reason);
      };
      if (signal.aborted) return stop();
      lane.waiting.push(go);
      signal.addEventListener("abort", stop, { once: true });
    });
  }
}
