/**
 * The CLI's other paths run from their CommonJS bundles with V8's code cache, like the stdio
 * server (scripts/bundle.mjs, src/cli.ts `bundled`): `call` and `tools` from dist/commands.cjs,
 * `--http` from dist/http.cjs, the in-process sandbox from dist/sandbox.cjs. Each writes its cache
 * under the cache dir it is given, and a start from that cache answers as the first did.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { assertBuilt, CLI } from "../helpers/mcp.js";
import { runProcess } from "../helpers/process.js";
import { spawnHttpServer } from "../http/child.js";

const temp = mkdtempSync(join(tmpdir(), "webdata-command-bundles-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The bundles whose caches are in `dir`'s code/ folder, by name. */
const cached = (dir: string) =>
  (existsSync(join(dir, "code")) ? readdirSync(join(dir, "code")) : [])
    .filter((f) => f.endsWith(".bin"))
    .map((f) => f.slice(0, f.indexOf("-")))
    .sort();

describe("the CLI's command bundles", () => {
  it("`call TOOL --help` runs from dist/commands.cjs, and from its cache the second time alike", async () => {
    assertBuilt();
    const cacheDir = join(temp, "call");
    const env = { PATH: process.env.PATH ?? "", WEBDATA_CACHE_DIR: cacheDir };
    const first = await runProcess(process.execPath, [CLI, "call", "serp_search", "--help"], { env });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("serp_search");
    expect(cached(cacheDir)).toEqual(["commands"]);
    const second = await runProcess(process.execPath, [CLI, "call", "serp_search", "--help"], { env });
    expect(second).toMatchObject({ status: 0, stdout: first.stdout });
  });

  it("`--http --sandbox` writes dist/http.cjs's cache once it listens, and the sandbox's at exit", async () => {
    const cacheDir = join(temp, "http");
    const server = await spawnHttpServer([], { WEBDATA_CACHE_DIR: cacheDir });
    try {
      // Before any signal (a server is often ended by one no exit handler outlives); written just
      // after the line the helper waits for, so looked for until it is there.
      await vi.waitFor(() => expect(cached(cacheDir)).toContain("http"), { timeout: 30_000, interval: 20 });
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(cached(cacheDir)).toEqual(["http", "sandbox"]);
    } finally {
      await server.kill();
    }
  });
});
