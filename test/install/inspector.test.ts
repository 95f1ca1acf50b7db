/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector-cli` 1.0.3) lists and calls the tools
 * of the stdio server on the sandbox, and lists those of the HTTP server with its bearer token
 * as docs/http-and-fleet.md shows (the header is what the Inspector npx picks on Node.js 20 lacks).
 * 1.0.3 must start in a folder whose parent holds a package.json, so it runs from the
 * repository's test/ folder. Its bin (`build/cli.js`) parses `--cli` and runs its client,
 * `node build/index.js` with the other arguments as given: the HTTP case goes through the bin as
 * the docs show it, the stdio cases start that client themselves (the same process and arguments,
 * one Node start less each: 0.3 s of CPU).
 */
import { describe, expect, it } from "vitest";
import { manifestTools } from "../../scripts/registry-docs.mjs";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { DEFAULT_TOOLSETS } from "../../src/toolsets.js";
import { useHttpServer } from "../helpers/http-server.js";
import { assertBuilt, CLI, TEST_KEY } from "../helpers/mcp.js";
import { at, ok, runNode } from "./helpers.js";

const INSPECTOR = at("node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
/** What the bin runs for `--cli` (cli.js `runCli`: `node build/index.js ARGS`, `--cli` left out). */
const INSPECTOR_CLIENT = at("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

async function inspect(args: string[]) {
  assertBuilt();
  const r = ok(
    await runNode([INSPECTOR_CLIENT, process.execPath, CLI, "--sandbox", ...args], { cwd: at("test") }),
    "mcp-inspector-cli",
  );
  return JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
}

describe("MCP Inspector CLI against the stdio server (--sandbox)", () => {
  it("tools/list returns every registry tool with its input schema", async () => {
    const { tools } = await inspect(["--method", "tools/list"]);
    const names = tools.map((t: { name: string }) => t.name);
    for (const t of manifestTools(ALL_TOOLS.filter((d) => DEFAULT_TOOLSETS.includes(d.toolset) && !d.optIn)))
      expect(names).toContain(t.name);
    for (const t of tools) expect(t.inputSchema.type).toBe("object");
  });

  it("tools/call serp_search with --tool-arg returns results and structured content", async () => {
    const result = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "serp_search",
      "--tool-arg",
      "search_engine=engine1_search",
      "--tool-arg",
      "query=hiking boots",
      "--tool-arg",
      "num_results=3",
    ]);
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0].text).toContain('"hiking boots"');
    expect(result.content[0].text).toContain(result.structuredContent.results[0].url);
    expect(result.structuredContent.results).toHaveLength(3);
    expect(result.structuredContent.results[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/site\//);
  });

  it("tools/call with a bad argument comes back as a tool error, not a crash", async () => {
    const result = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "serp_search",
      "--tool-arg",
      "search_engine=no_such_engine",
    ]);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("search_engine");
  });
});

describe("MCP Inspector CLI against the HTTP server with a bearer token", () => {
  const TOKEN = "inspector-http-token-0123456789";
  const { http } = useHttpServer(TEST_KEY, { env: { WEBDATA_HTTP_TOKEN: TOKEN } });

  it("lists the tools with --transport http --header, as docs/http-and-fleet.md shows", async () => {
    // The server refuses a request without the token, so a listing proves the header was sent.
    const auth = ["--header", `Authorization: Bearer ${TOKEN}`];
    const r = await runNode(
      [INSPECTOR, "--cli", http.url, "--transport", "http", ...auth, "--method", "tools/list"],
      {
        cwd: at("test"),
      },
    );
    const { tools } = JSON.parse(ok(r, "mcp-inspector-cli").stdout.slice(r.stdout.indexOf("{")));
    expect(tools.map((t: { name: string }) => t.name)).toContain("serp_search");
  });
});
