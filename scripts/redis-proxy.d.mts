/** Types of scripts/redis-proxy.mjs. */
export interface CountingRedisProxy {
  /** `redis://127.0.0.1:PORT` of the proxy. */
  url: string;
  /** The writes (round trips) since the last `reset()`, heartbeats left out. */
  writes(): string[];
  reset(): void;
  close(): Promise<void>;
}

export declare function countingRedisProxy(target: string): Promise<CountingRedisProxy>;
