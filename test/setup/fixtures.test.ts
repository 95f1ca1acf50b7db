/**
 * One shared fixture per job (issue 20 §3): a test file starts servers, sandboxes, child processes
 * and MCP clients through `test/helpers/` (and the HTTP client and child in `test/http/helpers.ts`,
 * `test/http/child.ts`), not by hand. The files below may, each for the reason given; an entry
 * that no longer starts anything by hand must leave the list.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** This file names the calls it looks for. */
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** Calls that start a server, a sandbox, a child process or an MCP client by hand. */
const HAND_MADE: Array<[string, RegExp]> = [
  ["startSandbox(", /\bstartSandbox\(/],
  ["startHttpServer(", /\bstartHttpServer\(/],
  ["createServer(", /\bcreateServer\(/],
  [".listen(", /\.listen\(/],
  ["spawn(", /\bspawn\(/],
  ["new Client(", /\bnew Client\(/],
  ["new StdioClientTransport(", /\bnew StdioClientTransport\(/],
  ["new StreamableHTTPClientTransport(", /\bnew StreamableHTTPClientTransport\(/],
  ["InMemoryTransport.createLinkedPair(", /\bInMemoryTransport\.createLinkedPair\(/],
];

/** Folders whose files are the fixtures, or drive servers their own way. */
const OWN_WAY = [
  ["test/helpers/", "the shared fixtures themselves"],
  ["test/clients/", "each agent framework starts the server its own way (that is what it tests)"],
  ["test/fleet/", "the real fleet (redis-server, nginx, replicas) has its own harness"],
];

const ALLOWED: Record<string, string> = {
  "test/http/helpers.ts": "the HTTP MCP client fixture (connect, connectFails)",
  "test/http/child.ts": "the CLI as an HTTP child fixture (spawnHttpServer)",
  "test/oauth/provider.ts": "oidc-provider needs a node:http server of its own",
  "test/oauth/oauth-e2e.test.ts":
    "the SDK's OAuth flow on a transport of its own (finishAuth before connect)",
  "test/sandbox/agents.test.ts": "a second sandbox with 200 extra agents, in one test",
  "test/sandbox/core.test.ts": "sandboxes with other options (no key, a rate limit) in one test each",
  "test/sandbox/local-only.test.ts": "startSandbox's refusal of 0.0.0.0 is what it tests",
  "test/sandbox/dialect.test.ts": "two sandboxes of different dialects, and the CLI refusing a bad --dialect",
  "test/api/client-sandbox.test.ts": "a sandbox with another key, in one test",
  "test/api/proxy.test.ts": "an HTTP CONNECT proxy (the fake upstream answers requests, it does not tunnel)",
  "test/http/server.test.ts": "startHttpServer's refusal of 0.0.0.0 without a token is what it tests",
  "test/server/stdio.test.ts": "raw bytes on the stdio transport are what it tests",
  "test/http/conformance.test.ts":
    "the official conformance suite, run on Node 22 by scripts/conformance.mjs (its own server and client)",
  "test/http/modern.test.ts":
    "the v2 SDK client pinned to 2026-07-28 (the shared connect helper is the 1.x client); `.listen(` is its subscriptions/listen",
  "test/server/protocol-answers.test.ts": "raw lines on the stdio transport are what it tests",
  "test/install/bundle.test.ts": "the unpacked .mcpb started by its manifest's own command",
  "test/cli/shell-sandbox-state.test.ts": "a stand-in process and port for the shell sandbox's state file",
};

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".ts") ? [relative(ROOT, path)] : [];
  });
}

const handMade = (file: string) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  return HAND_MADE.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
};

describe("shared fixtures", () => {
  const files = testFiles(join(ROOT, "test")).filter(
    (f) => f !== SELF && !OWN_WAY.some(([dir]) => f.startsWith(dir)),
  );

  it("no test file outside the list starts a server, sandbox, child or MCP client by hand", () => {
    const found = files
      .filter((f) => !(f in ALLOWED))
      .map((f) => ({ file: f, calls: handMade(f) }))
      .filter((f) => f.calls.length > 0);
    expect(
      found,
      "use test/helpers/ (in-process.ts, mcp.ts, http-server.ts, sandbox.ts, redis.ts, fake-upstream.ts; " +
        "test/http/helpers.ts connect, test/http/child.ts spawnHttpServer), extending one with an option",
    ).toEqual([]);
  });

  it("lists only files that still start something by hand", () => {
    const stale = Object.keys(ALLOWED).filter((f) => !files.includes(f) || handMade(f).length === 0);
    expect(stale, "remove these from ALLOWED").toEqual([]);
  });
});
