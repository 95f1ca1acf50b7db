/**
 * The HTTP server fixture: a sandbox that accepts only `key` and the Streamable HTTP server in
 * this process against it, started before the file's tests and stopped after them. For the built
 * CLI as an HTTP child process see `spawnHttpServer` in `test/http/child.ts`.
 */
import { afterAll, beforeAll } from "vitest";
import { type CountingRedisProxy, countingRedisProxy } from "../../scripts/redis-proxy.mjs";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServer, type HttpServerOptions, startHttpServer } from "../../src/server/http.js";
import { sandboxConfig } from "../http/helpers.js";
import { startRedis, type TestRedis } from "./redis.js";

export interface HttpFixture {
  /** Set before the file's first test. */
  readonly sandbox: Sandbox;
  readonly http: HttpServer;
  /** With `redis: true`: the proxy the server reaches its own Redis through (counts, stalls). */
  readonly redis: CountingRedisProxy;
}

export interface HttpFixtureOptions {
  sandbox?: Omit<SandboxOptions, "key">;
  /** Server options besides its config (built by `sandboxConfig` from the sandbox, the key and `env`). */
  server?: Omit<HttpServerOptions, "config">;
  env?: Record<string, string>;
  /** Keep the server's state in a Redis of this file's own, reached through a counting proxy. */
  redis?: boolean;
}

export function useHttpServer(key: string, options: HttpFixtureOptions = {}): HttpFixture {
  const fixture = {} as { sandbox: Sandbox; http: HttpServer; redis: CountingRedisProxy };
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    if (options.redis) {
      redis = await startRedis();
      fixture.redis = await countingRedisProxy(redis.url);
    }
    fixture.sandbox = await startSandbox({ ...options.sandbox, key });
    fixture.http = await startHttpServer({
      config: sandboxConfig(fixture.sandbox, key, options.env),
      port: 0,
      log: () => {},
      ...(options.redis ? { redisUrl: fixture.redis.url } : {}),
      ...options.server,
    });
  });
  afterAll(async () => {
    await fixture.http?.shutdown(0);
    await fixture.redis?.close();
    await redis?.stop();
    await fixture.sandbox?.close();
  });
  return fixture;
}
