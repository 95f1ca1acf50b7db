// Memory readings the benches take of the processes they start.
import { readFileSync } from "node:fs";

/** Resident memory (MB) of the process `pid` now (Linux: /proc/PID/status VmRSS); NaN elsewhere or once it is gone. */
export function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Memory (MB) the Redis server at `redisUrl` reports in use (`INFO memory`). */
export async function redisUsedMb(redisUrl) {
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl);
  try {
    return Number(/used_memory:(\d+)/.exec(await redis.info("memory"))[1]) / 1024 / 1024;
  } finally {
    redis.disconnect();
  }
}
