/**
 * Every listed input schema is one each model API takes (issue 22 item 1): OpenAI's strict mode
 * (the OpenAI Agents SDK's own MCP conversion, `mcpToFunctionTool` with `convertSchemasToStrict`,
 * converts it with no warning, and what it makes keeps to the strict subset), Gemini's (typed
 * enums, limits and defaults in words), and every field described. Registry tools and the
 * dedicated agent tools of the sandbox's catalog alike.
 */
import { getLogger, mcpToFunctionTool } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { compileAgent } from "../../src/agents/compile.js";
import { BUILTIN_AGENTS } from "../../src/sandbox/agents/definitions.js";
import { generatedAgents } from "../../src/sandbox/agents/generated.js";
import { listTools } from "../../src/server/list-tools.js";
import { inputJsonSchema } from "../../src/server/tool-schemas.js";
import { defineAgentTool } from "../../src/tools/agent-tool.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { SAID_MAX_LENGTH } from "../../src/tools/schema-text.js";

type Json = Record<string, any>;

const agentTools = [...BUILTIN_AGENTS, ...generatedAgents(4)].map((d) =>
  defineAgentTool(d.name, { detail: d, compiled: compileAgent(d) }),
);
const tools = [...ALL_TOOLS, ...agentTools];
const listed = listTools(tools);

/** OpenAI strict mode's `format` values and the keywords it refuses. */
const FORMATS = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
const REFUSED = [
  "default",
  "minLength",
  "maxLength",
  "examples",
  "$schema",
  "propertyNames",
  "oneOf",
  "allOf",
  "not",
  "patternProperties",
];

/** The OpenAI Agents SDK's strict conversion of a listed tool, and the warnings it logged. */
function convertStrict(tool: unknown): { fn: Json; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const logger = getLogger("openai-agents:core");
  const warn = logger.warn;
  logger.warn = (...args: unknown[]) => void warnings.push(args);
  try {
    return { fn: mcpToFunctionTool(tool as never, { name: "web-data" } as never, true) as Json, warnings };
  } finally {
    logger.warn = warn;
  }
}

/** Every problem of one node against the strict subset, with its path. */
function strictProblems(node: Json, path: string): string[] {
  const problems: string[] = [];
  for (const key of REFUSED) if (key in node) problems.push(`${path}: has ${key}`);
  if (node.format !== undefined && !FORMATS.includes(node.format))
    problems.push(`${path}: format ${node.format}`);
  if (node.type === undefined && node.anyOf === undefined && node.enum === undefined)
    problems.push(`${path}: no type`);
  if (node.enum !== undefined && node.type === undefined) problems.push(`${path}: untyped enum`);
  const types = [node.type].flat();
  if (types.includes("object")) {
    if (node.additionalProperties !== false) problems.push(`${path}: open object`);
    const names = Object.keys(node.properties ?? {});
    if (JSON.stringify(node.required) !== JSON.stringify(names)) problems.push(`${path}: not all required`);
    for (const name of names) problems.push(...strictProblems(node.properties[name], `${path}.${name}`));
  }
  if (node.items) problems.push(...strictProblems(node.items, `${path}[]`));
  for (const [i, branch] of (node.anyOf ?? []).entries())
    problems.push(...strictProblems(branch, `${path}|${i}`));
  return problems;
}

/** The non-null branch of a listed (nullable) node, or the node itself. */
const nonNull = (node: Json): Json => (node.anyOf ?? []).find((b: Json) => b.type !== "null") ?? node;

/**
 * Every declared field of a raw input schema, members of nested objects and of list items too,
 * beside its listed form: each with its path ("manage_job.schedule.cron", "manage_template.patch[].op").
 */
function describedFields(raw: Json, model: Json, path: string): { path: string; raw: Json; model: Json }[] {
  const out: { path: string; raw: Json; model: Json }[] = [];
  for (const [name, field] of Object.entries<Json>(raw.properties ?? {})) {
    const listed = model.properties?.[name];
    if (!listed) continue; // an open map, listed as JSON text: no members to list
    out.push({ path: `${path}.${name}`, raw: field, model: listed });
    out.push(...nestedFields(field, listed, `${path}.${name}`));
  }
  return out;
}

function nestedFields(raw: Json, model: Json, path: string): { path: string; raw: Json; model: Json }[] {
  const listed = nonNull(model);
  const branch = (raw.anyOf ?? []).find((b: Json) => b.type === "object" || b.type === "array") ?? raw;
  if (branch.type === "object" && listed.type !== "string") return describedFields(branch, listed, path);
  if (branch.type === "array" && branch.items?.type === "object" && listed.items?.type === "object")
    return describedFields(branch.items, listed.items, `${path}[]`);
  return [];
}

describe("listed input schemas", () => {
  it("cover every registry tool and at least 20 agent tools", () => {
    expect(listed.length).toBeGreaterThanOrEqual(ALL_TOOLS.length + 20);
  });

  it.each(listed.map((t) => [t.name, t] as const))("%s converts to OpenAI strict mode", (_name, tool) => {
    const { fn, warnings } = convertStrict(tool);
    expect(warnings).toEqual([]);
    expect(fn.strict).toBe(true);
    // Closed, every property required, nothing the strict subset refuses.
    expect(strictProblems(fn.parameters, "")).toEqual([]);
  });

  it.each(listed.map((t) => [t.name, t] as const))("%s lists optional members nullable", (_name, tool) => {
    const schema = tool.inputSchema as Json;
    for (const [name, field] of Object.entries<Json>(schema.properties)) {
      const types = [field.type ?? (field.anyOf ?? []).map((b: Json) => b.type)].flat();
      expect(types.includes("null"), name).toBe(!(schema.required ?? []).includes(name));
    }
  });

  it.each(tools.map((t) => [t.name, t] as const))(
    "%s describes every field, nested ones too, with its limits and default",
    (_n, tool) => {
      const raw = inputJsonSchema(tool) as Json;
      const model = listTools([tool])[0].inputSchema as Json;
      const fields = describedFields(raw, model, tool.name);
      expect(fields.length).toBeGreaterThan(0);
      for (const { path, raw: field, model: listedField } of fields) {
        expect(field.description, `${path} has no description`).toBeTruthy();
        const text = listedField.description as string;
        // A flag's default false goes unsaid (left out, it is off).
        if (field.default !== undefined && field.default !== false)
          expect(text, path).toContain(`default ${JSON.stringify(field.default)}`);
        if (typeof field.maximum === "number" && field.maximum < Number.MAX_SAFE_INTEGER)
          expect(text, path).toContain(String(field.maximum));
        // A string's length is said when a model may meet it: fixed, or capped at SAID_MAX_LENGTH.
        if (
          typeof field.maxLength === "number" &&
          (field.maxLength <= SAID_MAX_LENGTH || field.maxLength === field.minLength)
        )
          expect(text, path).toContain(String(field.maxLength));
      }
    },
  );
});

describe("Gemini's subset", () => {
  it("types every enum", () => {
    const untyped: string[] = [];
    const walk = (node: Json, path: string) => {
      if (node.enum && node.type !== "string" && node.type !== "number" && node.type !== "integer")
        untyped.push(path);
      for (const [k, v] of Object.entries<Json>(node.properties ?? {})) walk(v, `${path}.${k}`);
      if (node.items) walk(node.items, `${path}[]`);
      for (const b of node.anyOf ?? []) walk(b, path);
    };
    for (const t of listed) walk(t.inputSchema as Json, t.name);
    expect(untyped).toEqual([]);
  });

  it("says serp_search's limits in words: num_results 1–100", () => {
    const serp = listed.find((t) => t.name === "serp_search")?.inputSchema as Json;
    expect(serp.properties.num_results.description).toMatch(/1–100/);
    expect(serp.properties.max_chars.description).toMatch(/200–40000, default 20000/);
  });
});
