/**
 * Per-principal limits on the calls of one replica (issue 23 item 4, issue 30 items 2–3): each
 * principal runs at most `maxCalls` tool calls at once, of which at most `maxRunning` long calls
 * and MCP tasks; more wait in the principal's own queue, up to `maxQueued`, and past that are
 * refused with an error result that names the limit and when to retry. One user's burst then
 * holds only its own slots, and its requests wait in its own lane of the API key's rate limiter
 * (`WebDataClient.inLane`), so another user's call is delayed by a slot or two, not by the burst.
 */
import { ToolError } from "../tools/errors.js";
import { DEFAULT_MAX_TASKS, MemoryTaskQuota, type TaskQuota, taskQuotaError } from "./task-quota.js";

export interface FairShareLimits {
  /** Tool calls (every tool) one principal runs at once; default 16. */
  maxCalls: number;
  /** Long calls and tasks one principal runs at once; default 4. */
  maxRunning: number;
  /** Calls one principal may have waiting for a slot (in each of the two queues); default 100. */
  maxQueued: number;
  /** Live MCP task records one principal may hold (in the fleet, with Redis); default 500. */
  maxTasks: number;
}

export const DEFAULT_FAIR_SHARE: FairShareLimits = {
  maxCalls: 16,
  maxRunning: 4,
  maxQueued: 100,
  maxTasks: DEFAULT_MAX_TASKS,
};

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

/** How soon a refused caller may try again (s): a slot frees when one of its calls ends. */
const RETRY_CALLS_S = 2;
const RETRY_LONG_S = 10;

/** Slots per principal with a queue of its own (one for every call, one for long work). */
class Gate {
  readonly #lanes = new Map<string, Lane>();

  constructor(
    readonly maxRunning: number,
    readonly maxQueued: number,
    readonly refusal: (running: number, waiting: number) => ToolError,
  ) {}

  async acquire(principal: string, signal: AbortSignal): Promise<() => void> {
    const lane = this.#lanes.get(principal) ?? { running: 0, waiting: [] };
    this.#lanes.set(principal, lane);
    if (lane.running >= this.maxRunning) {
      if (lane.waiting.length >= this.maxQueued) throw this.refusal(lane.running, lane.waiting.length);
      // The releasing work hands its slot over: `running` stays as it is.
      await this.#wait(principal, lane, signal);
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

  get waiting(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.waiting.length;
    return n;
  }

  load(principal: string): { running: number; waiting: number } {
    const lane = this.#lanes.get(principal);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  #wait(principal: string, lane: Lane, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener("abort", stop);
        resolve();
      };
      const stop = () => {
        const at = lane.waiting.indexOf(go);
        if (at >= 0) lane.waiting.splice(at, 1);
        if (lane.running === 0 && lane.waiting.length === 0) this.#lanes.delete(principal);
        reject(signal.reason);
      };
      if (signal.aborted) return stop();
      lane.waiting.push(go);
      signal.addEventListener("abort", stop, { once: true });
    });
  }
}

export class FairShare {
  readonly limits: FairShareLimits;
  readonly #calls: Gate;
  readonly #long: Gate;
  readonly #tasks: TaskQuota;

  /** `tasks`: where live MCP task records are counted (a fleet's Redis; default this process). */
  constructor(limits: Partial<FairShareLimits> = {}, tasks: TaskQuota = new MemoryTaskQuota()) {
    this.limits = { ...DEFAULT_FAIR_SHARE, ...limits };
    this.#tasks = tasks;
    const { maxCalls, maxRunning, maxQueued } = this.limits;
    this.#calls = new Gate(
      maxCalls,
      maxQueued,
      (running, waiting) =>
        new ToolError(
          "rate_limited",
          `Too many calls at once: you have ${running} calls running and ${waiting} waiting on this server, the most it holds per caller (${maxCalls} running, ${maxQueued} waiting). Nothing was sent; retry in ${RETRY_CALLS_S} s, once some of them have finished.`,
          { retryAfter: RETRY_CALLS_S },
        ),
    );
    this.#long = new Gate(
      maxRunning,
      maxQueued,
      (running, waiting) =>
        new ToolError(
          "rate_limited",
          `Too many long calls at once: you have ${running} long calls or tasks running and ${waiting} waiting on this server, the most it holds per caller (${maxRunning} running, ${maxQueued} waiting). Nothing was sent; retry in ${RETRY_LONG_S} s, or wait for some to finish (get_task lists them).`,
          { retryAfter: RETRY_LONG_S },
        ),
    );
  }

  /**
   * A slot for one of `principal`'s calls (`long`: a long call or MCP task, which takes a long
   * slot first, then a call slot), waited for in its own queues; call `release` when the call
   * ends. Rejects when a queue is full (a `ToolError`) or `signal` aborts while waiting.
   */
  async acquire(principal: string, signal: AbortSignal, long = true): Promise<() => void> {
    const releaseLong = long ? await this.#long.acquire(principal, signal) : undefined;
    try {
      const releaseCall = await this.#calls.acquire(principal, signal);
      return () => {
        releaseCall();
        releaseLong?.();
      };
    } catch (error) {
      releaseLong?.();
      throw error;
    }
  }

  /**
   * Counts a new MCP task record of `principal` living `ttlMs`; throws the JSON-RPC error of the
   * cap (an `McpError`) when it already holds `maxTasks` live ones.
   */
  async admitTask(principal: string, ttlMs: number): Promise<void> {
    const answer = await this.#tasks.add(principal, ttlMs, this.limits.maxTasks);
    if (!answer.ok) throw taskQuotaError(this.limits.maxTasks, answer);
  }

  /** Long work waiting for a slot, every principal together (for `/healthz`). */
  get waiting(): number {
    return this.#long.waiting;
  }

  /** Calls waiting for a call slot, every principal together (for `/healthz`). */
  get callsWaiting(): number {
    return this.#calls.waiting;
  }

  /** Long work running or waiting for `principal` (health, tests). */
  load(principal: string): { running: number; waiting: number } {
    return this.#long.load(principal);
  }

  /** Calls running or waiting for `principal`. */
  callLoad(principal: string): { running: number; waiting: number } {
    return this.#calls.load(principal);
  }
}

/**
 * Slots of a replica-wide pool (resumed streams), at most `perCaller` of them for one principal:
 * no principal can take the whole pool. `take` answers which limit refused.
 */
export class CallerSlots {
  readonly #held = new Map<string, number>();
  #total = 0;

  constructor(
    readonly perCaller: number,
    readonly total: number,
  ) {}

  take(principal: string): { ok: true; release(): void } | { ok: false; limit: "caller" | "replica" } {
    const mine = this.#held.get(principal) ?? 0;
    if (mine >= this.perCaller) return { ok: false, limit: "caller" };
    if (this.#total >= this.total) return { ok: false, limit: "replica" };
    this.#held.set(principal, mine + 1);
    this.#total += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#total -= 1;
        const left = (this.#held.get(principal) ?? 1) - 1;
        if (left === 0) this.#held.delete(principal);
        else this.#held.set(principal, left);
      },
    };
  }

  get used(): number {
    return this.#total;
  }
}
