/**
 * `npm run demo`: the path an AI agent takes, on the built-in sandbox, with no key. It starts the
 * built server (`node dist/cli.cjs --sandbox`) as a stdio child, connects the MCP SDK's `Client`
 * exactly as Claude Desktop or an IDE would, and walks search → read the top result → find and
 * run an extraction agent → crawl a small site, printing what the agent sees (trimmed).
 * Everything it talks to is local (the sandbox serves a demo web site); it takes a few seconds.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";

const CLI = fileURLToPath(new URL("./cli.cjs", import.meta.url));
// The demo is the MCP *client* (`npm run demo`), printing for a person at a terminal; the server it
// talks to is a child process whose stdout carries JSON-RPC only.
const out = (line = "") => process.stdout.write(`${line}\n`);
const tty = process.stdout.isTTY === true;

/** Indents what the agent sees and cuts it to a few lines. */
function show(text: string, maxLines = 12, width = 110): void {
  const lines = text.split("\n").filter((l, i, all) => l.trim() !== "" || all[i - 1]?.trim() !== "");
  for (const line of lines.slice(0, maxLines)) {
    out(`  │ ${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  }
  if (lines.length > maxLines) {
    const more = lines.length - maxLines;
    out(`  │ … (${more} more line${more === 1 ? "" : "s"})`);
  }
}

const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("\n");

class DemoError extends Error {}

/** A step's heading; `step` is its number in `walk`'s order. */
function heading(step: number, title: string): void {
  out();
  out(`${step}. ${title}`);
}

/** One progress line per notification (rewritten in place on a terminal). */
function progressPrinter(): { onprogress: (p: Progress) => void; end: () => void } {
  let shown = false;
  return {
    onprogress(p) {
      const of = p.total !== undefined ? `/${p.total}` : "";
      const line = `  ⋯ progress ${p.progress}${of}${p.message ? `: ${p.message}` : ""}`;
      if (tty) process.stdout.write(`\r\x1b[2K${line}`);
      else out(line);
      shown = true;
    },
    end() {
      if (shown && tty) process.stdout.write("\n");
    },
  };
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult & { structuredContent?: any }> {
  out(`  → ${name} ${JSON.stringify(args)}`);
  const progress = progressPrinter();
  try {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      onprogress: progress.onprogress,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
    progress.end();
    if (result.isError) throw new DemoError(`${name} failed: ${textOf(result)}`);
    return result;
  } catch (error) {
    progress.end();
    throw error;
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  out("web-data-mcp demo — an MCP client drives the server on the built-in sandbox (no key, no network)");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--sandbox"],
    env: { ...getDefaultEnvironment(), WEBDATA_WAIT_MS: "30000" },
    stderr: "pipe",
  });
  let serverLog = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    serverLog += chunk.toString("utf8");
  });
  const client = new Client({ name: "web-data-demo", version: "1.0.0" });
  try {
    await client.connect(transport);
    await walk(client);
    out();
    out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. That is the whole loop an agent runs.`);
    out("Next: give your own client these tools (README: Claude Desktop, Claude Code, Cursor, VS Code).");
  } catch (error) {
    process.exitCode = 1;
    out();
    out(`Demo failed: ${error instanceof Error ? error.message : String(error)}`);
    if (serverLog.trim()) {
      out("Server log (stderr):");
      show(serverLog, 20);
    }
  } finally {
    await client.close().catch(() => {});
  }
}

/** The loop an agent runs, step by step: search, read, find and run an agent, crawl. */
async function walk(client: Client): Promise<void> {
  const need = await showTools(client);
  const top = await search(client, need);
  await read(client, need, top);
  await runProductAgent(client, need);
  await crawl(client, need, top.url);
}

/** Fails the demo when the server does not offer the tool a step needs. */
type Need = (name: string) => void;

/** Lists the tools the server offers; returns the check each step makes for its own. */
async function showTools(client: Client): Promise<Need> {
  const info = client.getServerVersion();
  heading(1, `Connected to MCP server "${info?.name}" ${info?.version} over stdio. The tools it offers:`);
  const { tools } = await client.listTools();
  const names = new Set(tools.map((t) => t.name));
  const width = Math.max(...tools.map((t) => t.name.length));
  for (const t of tools) {
    const line = (t.description ?? "").split("\n")[0];
    out(`  ${t.name.padEnd(width)}  ${line.length > 90 ? `${line.slice(0, 89)}…` : line}`);
  }
  return (name) => {
    if (!names.has(name)) throw new DemoError(`the server does not offer ${name} (tools: ${[...names]})`);
  };
}

async function search(client: Client, need: Need): Promise<{ url: string; title: string }> {
  heading(2, "Search: the agent looks for pages about waterproof hiking boots");
  need("serp_search");
  const serp = await callTool(client, "serp_search", {
    search_engine: "engine1_search",
    query: "waterproof hiking boots",
    num_results: 5,
  });
  show(textOf(serp), 8);
  const results: Array<{ url: string; title: string }> = serp.structuredContent?.results ?? [];
  const top = results[0];
  if (!top) throw new DemoError("serp_search returned no results");
  out(`  ✓ ${results.length} result${results.length === 1 ? "" : "s"}; the top one: ${top.url}`);
  return top;
}

async function read(client: Client, need: Need, top: { url: string; title: string }): Promise<void> {
  heading(3, `Read: the agent opens the top result as Markdown (${top.title})`);
  need("extract_page");
  const page = await callTool(client, "extract_page", { url: top.url, max_chars: 4000 });
  show(textOf(page), 14);
}

async function runProductAgent(client: Client, need: Need): Promise<void> {
  heading(4, "Agents: the agent looks for a ready-made extractor for product pages");
  need("list_agents");
  need("run_agent");
  const found = await callTool(client, "list_agents", { query: "product" });
  show(textOf(found), 6);
  const agents: Array<{ name: string }> = found.structuredContent?.agents ?? [];
  const pick = agents.find((a) => a.name === "ecommerce_product_page") ?? agents[0];
  if (!pick) throw new DemoError("list_agents found no product agent");
  out(`  The agent reads ${pick.name}'s input description before calling it:`);
  const detail = await callTool(client, "list_agents", { name: pick.name });
  show(textOf(detail), 10);
  const params: Record<string, unknown> = detail.structuredContent?.agent?.example_params ?? {};
  out("  …and runs it with the example params it was shown:");
  const run = await callTool(client, "run_agent", { agent: pick.name, params });
  show(textOf(run), 14);
  const parsed = run.structuredContent?.parsing;
  const fields = parsed && typeof parsed === "object" ? Object.keys(parsed) : [];
  out(`  ✓ ${pick.name} returned structured data: ${fields.join(", ") || "(no fields)"}`);
}

async function crawl(client: Client, need: Need, topUrl: string): Promise<void> {
  heading(5, "Crawl: the agent reads a small site, five pages at most");
  need("crawl_site");
  // The sandbox's demo site lives under /site/ on the sandbox host (the search results point there).
  const site = new URL("/site/", topUrl).href;
  const crawled = await callTool(client, "crawl_site", { url: site, limit: 5, max_chars: 3000 });
  const pages: Array<{ url?: string; state: string; status_code?: number }> =
    crawled.structuredContent?.pages ?? [];
  show(textOf(crawled), 12);
  out(`  ✓ ${pages.length} page${pages.length === 1 ? "" : "s"} crawled:`);
  for (const p of pages) out(`    • ${p.state.padEnd(8)} ${p.status_code ?? ""} ${p.url ?? ""}`);
}

await main();
