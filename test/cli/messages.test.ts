/**
 * What a new user meets in the first hour: each bad input gets one line of our own on stderr,
 * prefixed `web-data-mcp:`, that says what to do; exit 2 for a usage or configuration mistake.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorFromStatus } from "../../src/api/error-factory.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { DEFAULT_TOOLSETS } from "../../src/toolsets.js";
import { CLI, runCli, startTestSandbox, TEST_KEY } from "../helpers/mcp.js";
import { runProcess } from "../helpers/process.js";

/** One stderr line of ours, nothing else. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^web-data-mcp: /);
  return lines[0];
}

describe("command-line mistakes", () => {
  it("unknown tool: the nearest tool name and a pointer to tools, before anything starts", async () => {
    const r = await runCli(["call", "serp_serch", "{}", "--sandbox"]);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      'web-data-mcp: unknown tool "serp_serch"; the nearest is serp_search (list them: web-data-mcp tools)',
    );
    expect(r.stdout).toBe("");
  });

  it("the plain start (no argument, as MCP clients start it) without a key: one line, exit 2, stdout untouched", async () => {
    // The bin runs this start from dist/stdio.cjs without the rest of the CLI (src/bin.ts).
    const r = await runCli([], { WEBDATA_BASE_URL: "https://api.example.com" });
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      "web-data-mcp: WEBDATA_API_KEY is not set (get a key from the dashboard, or try --sandbox)",
    );
    expect(r.stdout).toBe("");
  });

  it("unknown flag: one line of ours with the nearest flag", async () => {
    const r = await runCli(["--sandbx"]);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      "web-data-mcp: unknown flag --sandbx; did you mean --sandbox? (see --help)",
    );
    const v = await runCli(["tools", "--port"]);
    expect(oneLine(v.stderr)).toBe("web-data-mcp: --port needs a value, e.g. --port VALUE (see --help)");
    const b = await runCli(["tools", "--json=yes"]);
    expect(oneLine(b.stderr)).toBe("web-data-mcp: --json takes no value (see --help)");
  });

  it("unknown command: the nearest command", async () => {
    const r = await runCli(["tool"]);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toBe('web-data-mcp: unknown command "tool"; did you mean tools? (see --help)');
  });

  it("--token is refused (secrets come from the environment) and the value is not echoed", async () => {
    for (const args of [
      ["--http", "--token", "tok_secret_value"],
      ["--http", "--token=tok_secret_value"],
    ]) {
      const r = await runCli(args);
      expect(r.status).toBe(2);
      const line = oneLine(r.stderr);
      expect(line).toContain("WEBDATA_HTTP_TOKEN");
      expect(line).not.toContain("tok_secret_value");
    }
  });

  it("call with arguments that are not JSON shows a working example", async () => {
    const r = await runCli(["call", "extract_page", "{url: x}", "--sandbox"]);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toContain(`'{"url":"https://example.com/"}'`);
  });

  it("tools works without a key (the registry's tools)", async () => {
    const r = await runCli(["tools"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const names = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual(
      ALL_TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset) && !t.optIn).map((t) => t.name),
    );
  });

  it("call TOOL --help prints the tool's arguments and its examples", async () => {
    const r = await runCli(["call", "serp_search", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}search_engine +required, one of engine1_search, /m);
    expect(r.stdout).toMatch(/^ {2}num_results +optional, integer/m);
    const examples = r.stdout.split("\n").filter((l) => l.startsWith("  web-data-mcp call serp_search '{"));
    expect(examples).toHaveLength(ALL_TOOLS.find((t) => t.name === "serp_search")!.examples!.length);
    const unknown = await runCli(["call", "get_tsk", "--help"]);
    expect(unknown.status).toBe(2);
    expect(oneLine(unknown.stderr)).toContain("the nearest is get_task");
    const agent = await runCli(["call", "agent_news_article", "--help"]);
    expect(agent.status).toBe(0);
    expect(agent.stdout).toContain(`web-data-mcp call list_agents '{"name":"news_article"}' --sandbox`);
  });

  it("the sandbox will not bind beyond loopback without --key", async () => {
    const r = await runCli(["sandbox", "--host", "0.0.0.0"]);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      /^web-data-mcp: binding the sandbox to 0\.0\.0\.0 \(beyond loopback\) needs --key K/,
    );
  });

  it("stdio mode on a terminal says it waits for an MCP client and how to try call", async () => {
    // `script` gives the server a terminal; its stdin ends at once, so the server then exits.
    const r = await runProcess("script", ["-qec", `"${process.execPath}" "${CLI}" --sandbox`, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(r.stdout).toContain(
      "web-data-mcp: waiting for an MCP client on stdin (this is the stdio server on the sandbox; Ctrl-C quits). To try a tool from the shell: web-data-mcp call serp_search --help",
    );
  });
});

describe("configuration problems found at start-up", () => {
  let sandbox: Sandbox;
  let cache: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    cache = mkdtempSync(join(tmpdir(), "webdata-cli-messages-"));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(cache, { recursive: true, force: true });
  });
  const env = () => ({ WEBDATA_API_KEY: TEST_KEY, WEBDATA_BASE_URL: sandbox.url, WEBDATA_CACHE_DIR: cache });

  it("legacy credential without the legacy host: the tool is not listed and the reason is logged", async () => {
    const r = await runCli(["tools"], { ...env(), WEBDATA_LEGACY_AUTH: "demo:demo" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("get_social_event");
    expect(oneLine(r.stderr)).toMatch(
      /^web-data-mcp: note: WEBDATA_LEGACY_AUTH is set but WEBDATA_LEGACY_BASE_URL is not, so get_social_event is not offered/,
    );
    const call = await runCli(["call", "get_social_event", '{"platform":"eventbook","event_id":"1"}'], {
      ...env(),
      WEBDATA_LEGACY_AUTH: "demo:demo",
    });
    expect(call.status).toBe(2);
    expect(call.stderr).toMatch(/^web-data-mcp: get_social_event is not offered with this configuration/m);
    expect(call.stdout).not.toContain("invalid_argument");
  });

  it("asking for the legacy toolset without the legacy host: one line, exit 2", async () => {
    const r = await runCli(["tools"], {
      ...env(),
      WEBDATA_LEGACY_AUTH: "demo:demo",
      WEBDATA_TOOLSETS: "legacy",
    });
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      "web-data-mcp: toolset legacy needs WEBDATA_LEGACY_BASE_URL (the legacy endpoint's host)",
    );
  });

  it("a base URL ending in a version: the 404 points at WEBDATA_BASE_URL", async () => {
    const r = await runCli(["call", "serp_search", '{"search_engine":"engine1_search","query":"x"}'], {
      ...env(),
      WEBDATA_BASE_URL: `${sandbox.url}/v1`,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("/v1/v2/serp");
    expect(r.stdout).toMatch(
      /^Error \[not_found\]: The API has no such path \(HTTP 404\): WEBDATA_BASE_URL ends in a version segment/,
    );
    expect(r.stdout).not.toContain("Check the id or name");
    expect(r.stderr).toContain(
      "web-data-mcp: note: WEBDATA_BASE_URL ends in /v1, but the tools add /v1 and /v2 themselves; set it to the service host without the version",
    );
    expect(r.stdout).toContain("the base URL ends in /v1; it should be the service host without the version");
    const plain = errorFromStatus({
      status: 404,
      bodyText: "",
      label: "GET /v1/tasks/abc",
      attempts: 1,
      maybeAccepted: false,
    });
    expect(plain.message).toContain("check the id or name");
  });

  it("a bad argument points at call TOOL --help", async () => {
    const r = await runCli(["call", "serp_search", '{"query":"x"}'], env());
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("search_engine");
    expect(r.stderr).toBe("web-data-mcp: the arguments and examples: web-data-mcp call serp_search --help\n");
  });
});
