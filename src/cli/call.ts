/**
 * `call TOOL [JSON]` and `call TOOL --help`, and `tools` without a key: a real MCP client talks
 * to the server in process (src/server/one-shot.ts); what it prints is what an agent would see.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Config, loadConfig } from "../config.js";
import { nearest } from "../suggest.js";
import { errorCodeIn } from "../tools/errors.js";
import { ALL_TOOLS, selectTools } from "../tools/registry.js";
import type { ToolDefinition } from "../tools/tool.js";
import { DEFAULT_TOOLSETS, exposesTool } from "../toolsets.js";
import { UsageError } from "./args.js";

// The `call` and `tools` commands print for a person at a terminal; they are not the stdio server.
const out = (line: string) => process.stdout.write(`${line}\n`);

export function unknownToolMessage(name: string, names: readonly string[]): string {
  const near = nearest(name, names);
  return `unknown tool ${JSON.stringify(name)}${near ? `; the nearest is ${near}` : ""} (list them: web-data-mcp tools)`;
}

/** Before anything starts: a name that is neither a registry tool nor an agent tool. */
export function checkToolName(name: string): void {
  if (name.startsWith("agent_") || ALL_TOOLS.some((t) => t.name === name)) return;
  throw new UsageError(
    unknownToolMessage(
      name,
      ALL_TOOLS.map((t) => t.name),
    ),
  );
}

/** Parses the JSON argument of `call`; a mistake is a one-line usage error with an example. */
export function parseCallArgs(tool: string, raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    throw new UsageError(
      `call: the arguments must be one JSON object in single quotes, e.g. ${example(tool)} (see call ${tool} --help)`,
    );
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new UsageError(`call: the arguments must be a JSON object, e.g. ${example(tool)}`);
  }
  return args as Record<string, unknown>;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function example(tool: string): string {
  const args = ALL_TOOLS.find((t) => t.name === tool)?.examples?.[0] ?? { url: "https://example.com" };
  return shellQuote(JSON.stringify(args));
}

export async function runCall(config: Config, name: string, args: Record<string, unknown>, json: boolean) {
  const { withClient } = await import("../server/one-shot.js");
  const result = await withClient(config, async (client) => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    if (!names.includes(name)) {
      if (!ALL_TOOLS.some((t) => t.name === name)) throw new UsageError(unknownToolMessage(name, names));
      throw new UsageError(notOfferedMessage(name, config));
    }
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: config.waitMs + 30_000,
    })) as CallToolResult;
  });
  for (const item of result.content) {
    if (item.type === "text") out(item.text.replace(/^\s*\n/, ""));
    else if (item.type === "image") out(`[image ${item.mimeType}, ${item.data.length} base64 chars]`);
  }
  if (json && result.structuredContent) out(JSON.stringify(result.structuredContent, null, 2));
  const code = errorCodeIn(result);
  if (code === "invalid_argument" && ALL_TOOLS.some((t) => t.name === name)) {
    process.stderr.write(`web-data-mcp: the arguments and examples: web-data-mcp call ${name} --help\n`);
  }
  return result.isError ? 1 : 0;
}

function describeType(p: Record<string, any>): string {
  if (Array.isArray(p.enum)) return `one of ${p.enum.join(", ")}`;
  if (p.type === "array") return `array of ${p.items ? describeType(p.items) : "values"}`;
  if (Array.isArray(p.anyOf)) return p.anyOf.map(describeType).join(" or ");
  return String(p.type ?? "any");
}

/**
 * Why a registry tool is not in this configuration's list, and what brings it: its toolset by
 * name (`--toolsets`, `WEBDATA_TOOLSETS`) or `--toolsets all`; the legacy credential and host for
 * the legacy toolset; `WEBDATA_READ_ONLY` for a tool that writes.
 */
export function notOfferedMessage(
  name: string,
  config: Pick<Config, "toolsets" | "legacyAuth" | "readOnly">,
): string {
  const tool = ALL_TOOLS.find((t) => t.name === name);
  const head = `${name} is not offered with this configuration`;
  if (!tool) return head;
  if (tool.toolset === "legacy") {
    return `${head}: its toolset, legacy, needs WEBDATA_LEGACY_AUTH (user:pass) and WEBDATA_LEGACY_BASE_URL (the legacy host); --sandbox sets both (see the notes above)`;
  }
  if (config.toolsets.includes(tool.toolset) && config.readOnly && !tool.readOnly) {
    return `${head}: WEBDATA_READ_ONLY is set and ${name} writes (unset WEBDATA_READ_ONLY to use it)`;
  }
  const on = config.toolsets.filter((t) => t !== "legacy");
  return `${head}: it is in toolset ${tool.toolset}, which is off (on: ${on.join(", ")}). Turn it on: --toolsets ${[...on, tool.toolset].join(",")} (or WEBDATA_TOOLSETS), or every tool: --toolsets all`;
}

/** The `--sandbox` configuration with nothing else set: the default toolsets and the legacy credential. */
const sandboxDefaults = () => loadConfig({}, { sandbox: true });

/** The flag an example needs to reach a tool `--sandbox` alone does not offer: its toolset. */
function toolsetFlag(tool: ToolDefinition): string {
  return exposesTool(sandboxDefaults(), tool) ? "" : ` --toolsets ${tool.toolset}`;
}

/** The line under the header for a tool the default list leaves out: what brings it. */
function toolsetNote(tool: ToolDefinition): string[] {
  if (tool.toolset === "legacy")
    return ["Needs WEBDATA_LEGACY_AUTH (user:pass) and WEBDATA_LEGACY_BASE_URL; --sandbox sets both."];
  if (exposesTool({ toolsets: DEFAULT_TOOLSETS }, tool)) return [];
  const withIt = [...DEFAULT_TOOLSETS, tool.toolset].join(",");
  return [
    `Not on by default: turn its toolset on with --toolsets ${withIt} (or WEBDATA_TOOLSETS), or --toolsets all.`,
  ];
}

/** `call TOOL --help`: the tool's arguments (from its input schema) and its examples. */
export function toolHelp(name: string): string {
  const tool = ALL_TOOLS.find((t) => t.name === name);
  if (!tool && name.startsWith("agent_")) {
    const agent = name.slice("agent_".length);
    return `${name} takes the params of agent ${agent} directly (when WEBDATA_AGENT_TOOLS names it). Its params and an example:\n  web-data-mcp call list_agents '{"name":"${agent}"}' --sandbox`;
  }
  if (!tool) {
    throw new UsageError(
      unknownToolMessage(
        name,
        ALL_TOOLS.map((t) => t.name),
      ),
    );
  }
  const schema = z.toJSONSchema(tool.inputObject ?? z.object(tool.input), { io: "input" }) as {
    properties?: Record<string, Record<string, any>>;
    required?: string[];
  };
  const props = Object.entries(schema.properties ?? {});
  const width = Math.max(...props.map(([k]) => k.length), 4);
  const lines = [
    `${tool.name} — ${tool.title} (toolset ${tool.toolset})`,
    ...toolsetNote(tool),
    tool.description,
    "",
    "Arguments (one JSON object):",
  ];
  for (const [key, p] of props) {
    const required = schema.required?.includes(key) ? "required" : "optional";
    const dflt = p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : "";
    const about = p.description ? ` — ${p.description}` : "";
    lines.push(`  ${key.padEnd(width)}  ${required}, ${describeType(p)}${dflt}${about}`);
  }
  lines.push("", "Examples (they run on the built-in sandbox):");
  for (const args of tool.examples ?? []) {
    lines.push(
      `  web-data-mcp call ${tool.name} ${shellQuote(JSON.stringify(args))} --sandbox${toolsetFlag(tool)}`,
    );
  }
  return lines.join("\n");
}

/** `tools` without WEBDATA_API_KEY: the registry's tools this configuration offers. */
export function registryToolsText(config: Pick<Config, "toolsets" | "legacyAuth">): string {
  const tools: ToolDefinition[] = selectTools(config);
  const width = Math.max(...tools.map((t) => t.name.length));
  return tools
    .map((t) => `${t.name.padEnd(width)}  ${`[${t.toolset}]`.padEnd(12)}  ${t.description.split("\n")[0]}`)
    .join("\n");
}
