/**
 * The HTTP server fixture: a sandbox that accepts only `key` and the Streamable HTTP server in
 * this process against it, started before the file's tests and stopped after them. For the built
 * CLI as an HTTP child process see `spawnHttpServer` in `test/http/child.ts`.
 */
import { afterAll, beforeAll } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServer, type HttpServerOptions, startHttpServer } from "../../src/server/http.js";
import { sandboxConfig } from "../http/helpers.js";

export interface HttpFixture {
  /** Set before the file's first test. */
  readonly sandbox: Sandbox;
  readonly http: HttpServer;
}

export interface HttpFixtureOptions {
  sandbox?: Omit<SandboxOptions, "key">;
  /** Server options besides its config (built by `sandboxConfig` from the sandbox, the key and `env`). */
  server?: Omit<HttpServerOptions, "config">;
  env?: Record<string, string>;
}

export function useHttpServer(key: string, options: HttpFixtureOptions = {}): HttpFixture {
  const fixture = {} as { sandbox: Sandbox; http: HttpServer };
  beforeAll(async () => {
    fixture.sandbox = await startSandbox({ ...options.sandbox, key });
    fixture.http = await startHttpServer({
      config: sandboxConfig(fixture.sandbox, key, options.env),
      port: 0,
      log: () => {},
      ...options.server,
    });
  });
  afterAll(async () => {
    await fixture.http?.shutdown(0);
    await fixture.sandbox?.close();
  });
  return fixture;
}
