/**
 * `SessionStreams` for a fleet: the streams this replica holds (`HeldStreams`), and a tool list
 * change announced on Redis pub/sub (`wd:tools`) to every replica, which brings its own list of
 * that scope up to date first (`refresh`), then tells the sessions it holds of that scope.
 */
import type { Shared } from "./redis.js";
import {
  HeldStreams,
  type SessionStreams,
  type SessionStreamsDeps,
  TOOLS_CHANGED,
} from "./session-streams.js";

/** The channel name (`PREFIX` + "tools"); not imported from `./redis.ts` to keep ioredis out of type-only users. */
const TOOLS = "wd:tools";

export interface RedisSessionStreamsDeps extends SessionStreamsDeps {
  /** Brings this replica's tool list of `scope` up to date (another replica saw it change). */
  refresh?(scope: string): Promise<void>;
}

export class RedisSessionStreams extends HeldStreams implements SessionStreams {
  readonly #shared: Shared;
  readonly #refresh: RedisSessionStreamsDeps["refresh"];
  /** Scopes being refreshed after another replica's announcement (their change is told already). */
  readonly #quiet = new Map<string, number>();

  private constructor(shared: Shared, deps: RedisSessionStreamsDeps) {
    super(deps);
    this.#shared = shared;
    this.#refresh = deps.refresh;
  }

  /** Streams that hear the fleet's tool list changes (subscribed before this resolves). */
  static async start(shared: Shared, deps: RedisSessionStreamsDeps): Promise<RedisSessionStreams> {
    const streams = new RedisSessionStreams(shared, deps);
    await shared.on(TOOLS, (text) => {
      const change = parseToolsChange(text);
      if (change && change.from !== shared.replica) void streams.#receive(change.scope);
    });
    return streams;
  }

  async toolsChanged(scope: string): Promise<void> {
    if (this.#quiet.has(scope)) return;
    const { redis, replica } = this.#shared;
    void redis.publish(TOOLS, JSON.stringify({ scope, from: replica })).catch(() => {});
    await this.send(scope, TOOLS_CHANGED);
  }

  /** Another replica saw `scope`'s tool list change: this one's list first, so a re-list here sees it. */
  async #receive(scope: string): Promise<void> {
    this.#quiet.set(scope, (this.#quiet.get(scope) ?? 0) + 1);
    try {
      await this.#refresh?.(scope);
    } catch {
      // the sessions are told anyway; the list catches up with the next refresh
    } finally {
      const left = (this.#quiet.get(scope) ?? 1) - 1;
      if (left > 0) this.#quiet.set(scope, left);
      else this.#quiet.delete(scope);
    }
    await this.send(scope, TOOLS_CHANGED);
  }
}

/** A tool list change in a pub/sub message, or undefined when it is not one. */
function parseToolsChange(text: string): { scope: string; from: string } | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.scope === "string" && typeof value.from === "string") {
      return { scope: value.scope, from: value.from };
    }
  } catch {
    // not ours
  }
  return undefined;
}
