/**
 * The HTTP server fixture: the Streamable HTTP server in this process against a sandbox, started
 * before the file's tests and stopped after them. `useHttpServer(key)` brings its own sandbox that
 * accepts only `key`; `useHttpServerOn(sandbox, key)` adds another server (a token-guarded twin, a
 * replica) against a sandbox the file already has; `startHttpServerOn` starts one inside a test
 * (stop it in `finally`). For the built CLI as an HTTP child process see `spawnHttpServer` in
 * `test/http/child.ts`.
 */
import { type CountingRedisProxy, countingRedisProxy } from "../../scripts/redis-proxy.mjs";
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.js";
import { type HttpServer, type HttpServerOptions, startHttpServer } from "../../src/server/http.js";
import { sandboxConfig } from "../http/helpers.js";
import { readThrough, useStarted } from "./read-through.js";
import { useRedis } from "./redis.js";
import { useSandbox } from "./sandbox.js";

export interface HttpFixture {
  /** Set before the file's first test. */
  readonly sandbox: Sandbox;
  readonly http: HttpServer;
  /** With `redis: true`: the proxy the server reaches its own Redis through (counts, stalls). */
  readonly redis: CountingRedisProxy;
}

export interface HttpServerOnOptions {
  /** Server options besides its config (built by `sandboxConfig` from the sandbox, the key and `env`). */
  server?: Omit<HttpServerOptions, "config">;
  env?: Record<string, string>;
}

export interface HttpFixtureOptions extends HttpServerOnOptions {
  sandbox?: Omit<SandboxOptions, "key">;
  /** Keep the server's state in a Redis of this file's own, reached through a counting proxy. */
  redis?: boolean;
}

/** One HTTP server against `sandbox` with `key`, started now; quiet unless `server.log` is given. */
export function startHttpServerOn(
  sandbox: Sandbox,
  key: string,
  options: HttpServerOnOptions = {},
): Promise<HttpServer> {
  return startHttpServer({
    config: sandboxConfig(sandbox, key, options.env),
    port: 0,
    log: () => {},
    ...options.server,
  });
}

/**
 * An HTTP server for the file against `sandbox` (a `useSandbox` handle, say), started before its
 * first test and shut down after its last; the handle reads through to it. `options` may be a
 * function, called in `beforeAll` (to read a Redis URL known only then, or start telemetry).
 */
export function useHttpServerOn(
  sandbox: Sandbox,
  key: string,
  options: HttpServerOnOptions | (() => HttpServerOnOptions | Promise<HttpServerOnOptions>) = {},
): HttpServer {
  return useStarted(
    "the HTTP server",
    async () => startHttpServerOn(sandbox, key, await (typeof options === "function" ? options() : options)),
    (http) => http.shutdown(0),
  );
}

export function useHttpServer(key: string, options: HttpFixtureOptions = {}): HttpFixture {
  const redis = options.redis ? useRedisProxy() : undefined;
  const sandbox = useSandbox({ ...options.sandbox, key });
  const http = useHttpServerOn(sandbox, key, () => ({
    env: options.env,
    server: { ...(redis ? { redisUrl: redis.url } : {}), ...options.server },
  }));
  return {
    sandbox,
    http,
    redis: redis ?? readThrough<CountingRedisProxy>(() => undefined, "the Redis proxy (redis: true)"),
  };
}

/** A Redis of the file's own behind a counting proxy (its `url` is the proxy's). */
function useRedisProxy(): CountingRedisProxy {
  const redis = useRedis();
  return useStarted(
    "the Redis proxy",
    () => countingRedisProxy(redis.url),
    (proxy) => proxy.close(),
  );
}
