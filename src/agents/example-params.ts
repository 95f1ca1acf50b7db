/**
 * The example params the server shows for an agent (`list_agents {name}`, a refused run) or a
 * template version (`run_template` without params): the catalog's own examples where they pass
 * the server's validation, and for a required param without one a value built from its schema
 * (`example-value.ts`: format, pattern, enum, range, the agent's own site). Every value is kept
 * only if the server's own check of that param accepts it, so an example never fails the
 * server's validation; a required param no value passes is named in `missing`, and then no
 * example call is shown at all.
 */
import type { z } from "zod";
import type { AgentDetail, InputProperty, TemplateVersion } from "../api/schemas.js";
import type { CompiledAgent } from "./compile.js";
import { hostOf, type ValueNode, valueCandidates } from "./example-value.js";
import { parseType } from "./input-schema.js";
import { templateInputSchema } from "./json-schema.js";
import { parseRules } from "./rules.js";

export interface ExampleParams {
  /** Every required param, and the optional ones the catalog gives an accepted example for. */
  params: Record<string, unknown>;
  /** Required params no accepted value was found for: show no example call then. */
  missing: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** An input property's type and rules as the JSON Schema keywords `valueCandidates` reads. */
function nodeOfProperty(prop: InputProperty): ValueNode {
  const { kind, item } = parseType(String(prop.type));
  const r = parseRules(prop.rules);
  const given = { examples: prop.examples ?? undefined, default: prop.default ?? undefined };
  const type = (k: string | undefined) => (k === "unknown" ? undefined : k);
  if (kind === "array") {
    return {
      type: "array",
      items: { type: type(item), pattern: r.pattern },
      minItems: r.minItems ?? r.minLength,
      maxItems: r.maxItems ?? r.maxLength,
      ...given,
    };
  }
  const numeric = kind === "integer" || kind === "number";
  const oneOf = kind === "string" || numeric ? r.oneOf : undefined;
  return {
    type: type(kind),
    enum: oneOf && numeric ? oneOf.map(Number) : oneOf,
    format: r.format === "url" ? "uri" : r.format,
    pattern: r.pattern,
    minLength: r.minLength,
    maxLength: r.maxLength,
    minimum: r.min,
    maximum: r.max,
    ...given,
  };
}

/** The first value `accepts` takes: an example of the catalog, else a built one. */
function pick(
  examples: readonly unknown[],
  build: () => unknown[],
  accepts: (v: unknown) => boolean,
): unknown {
  const example = examples.find((v) => v !== undefined && v !== null && accepts(v));
  return example !== undefined ? example : build().find(accepts);
}

/** An agent's example params, each value accepted by the agent's compiled params schema. */
export function agentExampleParams(detail: AgentDetail, compiled: CompiledAgent): ExampleParams {
  const host = hostOf(detail.domain);
  const params: Obj = {};
  const missing: string[] = [];
  for (const prop of compiled.params.properties) {
    const field = compiled.params.schema.shape[prop.name] as z.ZodType | undefined;
    if (!field) continue;
    const accepts = (v: unknown) => field.safeParse(v).success;
    const build = () =>
      prop.required ? valueCandidates(nodeOfProperty(prop), { name: prop.name, host }) : [];
    const value = pick(prop.examples ?? [], build, accepts);
    if (value !== undefined) params[prop.name] = value;
    else if (prop.required) missing.push(prop.name);
  }
  return { params, missing };
}

/**
 * A template version's example params: its first sample input that its `input_schema` accepts,
 * else one built property by property (each checked against that property's own schema) and
 * then checked as a whole.
 */
export function templateExampleParams(version: TemplateVersion): ExampleParams {
  const schema = version.input_schema;
  const whole = templateInputSchema(schema).schema;
  const sample = (version.samples ?? [])
    .map((s) => s?.input)
    .find((input) => isObj(input) && whole.safeParse(input).success);
  if (isObj(sample)) return { params: sample, missing: [] };
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const host = hostOf(version.metadata?.domain);
  const nested = new Map<ValueNode, z.ZodType>();
  const accepts = (node: ValueNode, v: unknown) => {
    let check = nested.get(node);
    if (!check) {
      check = templateInputSchema(node).schema;
      nested.set(node, check);
    }
    return check.safeParse(v).success;
  };
  const params: Obj = {};
  const missing: string[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const node = (isObj(raw) ? raw : {}) as ValueNode;
    const one = templateInputSchema({
      type: "object",
      properties: { [name]: node },
      required: [name],
    }).schema;
    const takes = (v: unknown) => one.safeParse({ [name]: v }).success;
    const examples = Array.isArray(node.examples) ? node.examples : [];
    const build = () => (required.has(name) ? valueCandidates(node, { name, host, accepts }) : []);
    const value = pick(examples, build, takes);
    if (value !== undefined) params[name] = value;
    else if (required.has(name)) missing.push(name);
  }
  if (missing.length === 0 && !whole.safeParse(params).success) {
    // The properties pass one by one but not together (a rule across them): no example then.
    return { params, missing: [...required] };
  }
  return { params, missing };
}

/** The line that shows the call: `Example: run_agent {…}`, or why there is none. */
export function exampleLine(tool: string, args: (params: Obj) => Obj, example: ExampleParams): string {
  if (example.missing.length === 0) return `Example: ${tool} ${JSON.stringify(args(example.params))}`;
  return `Example: none shown: no value built for ${example.missing.join(", ")} passes its rules; give ${
    example.missing.length === 1 ? "it" : "them"
  } as described above.`;
}
