/**
 * Live MCP task records per principal (issue 30 item 3): a record counts from its creation until
 * its TTL ends, whatever its state, since that is what it holds in the task store. Past the cap a
 * task request is refused with a JSON-RPC error naming the cap and when the oldest record expires;
 * nothing is created. The count is this process's (`MemoryTaskQuota`) or the fleet's
 * (`RedisTaskQuota` in ./http/redis-task-quota.ts), through one contract test.
 */
import { randomUUID } from "node:crypto";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

export type QuotaAnswer = { ok: true } | { ok: false; held: number; retryInMs: number };

export interface TaskQuota {
  /** Counts one more record of `owner` living `ttlMs`, unless `owner` already holds `max` live ones. */
  add(owner: string, ttlMs: number, max: number): Promise<QuotaAnswer>;
}

/** Live MCP task records one principal may hold; default 500. */
export const DEFAULT_MAX_TASKS = 500;

/** The JSON-RPC error of the cap (`-32000`, with the limit and the wait in `data`). */
export function taskQuotaError(max: number, answer: { held: number; retryInMs: number }): McpError {
  const retryAfter = Math.max(1, Math.ceil(answer.retryInMs / 1000));
  return new McpError(
    -32000,
    `Too many MCP tasks: you hold ${answer.held} live task records on this server, the most one caller may (${max}); a record counts until its TTL ends. Nothing was created: retry in ${retryAfter} s, when your oldest one expires, or call the tool without "task" meanwhile (ask shorter TTLs to free records sooner).`,
    { limit: "tasks_per_caller", max, retry_after: retryAfter },
  );
}

export class MemoryTaskQuota implements TaskQuota {
  /** Per owner: record → expiry (ms epoch). */
  readonly #records = new Map<string, Map<string, number>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async add(owner: string, ttlMs: number, max: number): Promise<QuotaAnswer> {
    const now = this.#now();
    const mine = this.#records.get(owner) ?? new Map<string, number>();
    for (const [id, until] of mine) if (until <= now) mine.delete(id);
    if (mine.size >= max) {
      return { ok: false, held: mine.size, retryInMs: Math.min(...mine.values()) - now };
    }
    mine.set(randomUUID(), now + ttlMs);
    this.#records.set(owner, mine);
    return { ok: true };
  }
}
