/**
 * Redis failures as the HTTP layer answers them, without loading ioredis (only a fleet does): a
 * command that timed out or found no connection fails its request with a clear 503.
 */

/** What a request that needed Redis and did not get it answers (503). */
export const REDIS_UNAVAILABLE =
  "Service Unavailable: the shared state store (Redis) did not answer in time; retry shortly";

/** True for ioredis's own failures: a timeout, a closed or refused connection. */
export function isRedisFailure(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : "";
  return /Command timed out|Connection is closed|MaxRetriesPerRequest|ECONNREFUSED|Stream isn't writeable/.test(
    text,
  );
}
