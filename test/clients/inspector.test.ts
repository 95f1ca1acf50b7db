/**
 * MCP Inspector CLI (`@modelcontextprotocol/inspector-cli` 1.0.3): one process per method, as a
 * person or a script uses it (`--method tools/list`, `--method tools/call --tool-name T
 * --tool-arg k=v`), against the stdio server it spawns and against the HTTP endpoint. No model
 * reads its output: what it prints (the result JSON, or its error) is what the user sees.
 * 1.0.3 must start in a folder whose parent holds a package.json, so it runs from test/. Its
 * output reaches no model, so it has no row in the token table.
 */
import { at, childEnv, runNode } from "../install/helpers.js";
import type { McpResult } from "./forwarded.js";
import type { Servers, TransportName } from "./servers.js";
import { describeFramework, type Session } from "./suite.js";

/** The CLI itself (`--cli` of the `mcp-inspector` launcher runs this file in a second node process). */
const INSPECTOR = at("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

const target = (transport: TransportName, servers: Servers): string[] =>
  transport === "http" ? [servers.httpUrl, "--transport", "http"] : [process.execPath, at("dist/cli.cjs")];

/** One Inspector run; its parsed JSON output, or its error text when it failed. */
async function inspect(servers: Servers, args: string[]): Promise<{ json?: unknown; error?: string }> {
  // The CLI hands its own environment to the stdio server it spawns.
  const r = await runNode([INSPECTOR, ...args], { cwd: at("test"), env: childEnv(servers.stdio.env) });
  const start = r.stdout.indexOf("{");
  if (r.status === 0 && start >= 0) return { json: JSON.parse(r.stdout.slice(start)) };
  return { error: `exit ${r.status}: ${r.stdout}\n${r.stderr}` };
}

const toolArg = ([k, v]: [string, unknown]) => [
  "--tool-arg",
  `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`,
];

describeFramework({
  name: "MCP Inspector CLI",
  async connect(transport, servers): Promise<Session> {
    const base = target(transport, servers);
    const listed = await inspect(servers, [...base, "--method", "tools/list"]);
    if (listed.error) throw new Error(listed.error);
    const tools = (listed.json as { tools: Array<{ name: string }> }).tools;
    return {
      toolNames: tools.map((t) => t.name),
      async call(tool: string, args: Record<string, unknown>) {
        const out = await inspect(servers, [
          ...base,
          "--method",
          "tools/call",
          "--tool-name",
          tool,
          ...Object.entries(args).flatMap(toolArg),
        ]);
        return out.error === undefined
          ? { toModel: out.json, mcp: out.json as McpResult }
          : { toModel: out.error };
      },
      close: async () => {},
    };
  },
  measureTokens: false,
  cannot: {
    progress: "the CLI prints one final result and shows no progress notifications",
    cancel: "the CLI has no way to cancel a call it started",
  },
});
