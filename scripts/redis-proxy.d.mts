/** Types of scripts/redis-proxy.mjs. */
export interface CountingRedisProxy {
  /** `redis://127.0.0.1:PORT` of the proxy. */
  url: string;
  /** The writes (round trips) since the last `reset()`, heartbeats left out. */
  writes(): string[];
  reset(): void;
  /** From now on Redis's answers are dropped: every command waits forever unless it times out. */
  stall(): void;
  close(): Promise<void>;
}

export declare function countingRedisProxy(target: string): Promise<CountingRedisProxy>;
