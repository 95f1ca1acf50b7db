/**
 * The agent catalog seen through generation 2 (§13 of web-data-api-v2.md): every agent is an
 * extract template whose `published_version` carries its input rules as a JSON Schema
 * (`input_schema`) and its output fields as one (`output_schema`). The template store's own
 * templates (built-in and generated) come first in a listing.
 */
import type { AgentDetail, InputProperty, TemplateVersion } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { stableUuid } from "../hash.js";

type Schema = Record<string, unknown>;

const CREATED = "2026-07-01T00:00:00.000Z";

const RULE_KEYWORDS: Record<string, (v: string) => Schema> = {
  min_length: (v) => ({ minLength: Number(v) }),
  max_length: (v) => ({ maxLength: Number(v) }),
  pattern: (v) => ({ pattern: v }),
  min: (v) => ({ minimum: Number(v) }),
  max: (v) => ({ maximum: Number(v) }),
  one_of: (v) => ({ enum: v.split("|") }),
  min_items: (v) => ({ minItems: Number(v) }),
  max_items: (v) => ({ maxItems: Number(v) }),
};

/** "array[string]" → `{type: "array", items: {type: "string"}}`; other types as named. */
function typeSchema(type: string): Schema {
  const item = /^array\[(\w+)\]$/.exec(type);
  return item ? { type: "array", items: { type: item[1] } } : { type };
}

/** One input property as a JSON Schema property (its rules as keywords). */
function propertySchema(p: InputProperty): Schema {
  const out: Schema = { ...typeSchema(p.type), description: p.description };
  for (const rule of p.rules ?? []) {
    const sep = rule.indexOf(":");
    const keyword = RULE_KEYWORDS[sep < 0 ? rule : rule.slice(0, sep)];
    if (keyword) Object.assign(out, keyword(rule.slice(sep + 1)));
  }
  if (p.examples && p.examples.length > 0) out.examples = p.examples;
  if (p.default !== null && p.default !== undefined) out.default = p.default;
  return out;
}

export function inputSchemaOf(properties: readonly InputProperty[] | null | undefined): Schema {
  const props = properties ?? [];
  return {
    type: "object",
    properties: Object.fromEntries(props.map((p) => [p.name, propertySchema(p)])),
    required: props.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/** An agent as the published version of a template of the same name. */
export function agentVersion(agent: AgentDetail): TemplateVersion {
  return {
    id: stableUuid(`template-version:${agent.name}`),
    name: agent.name,
    version_number: 1,
    created_at: CREATED,
    input_schema: inputSchemaOf(agent.input_properties),
    output_schema: { type: "object", properties: agent.output_schema ?? {} },
    metadata: {
      description: agent.description ?? null,
      display_name: agent.display_name,
      domain: agent.domain ?? null,
      entity_type: agent.entity_type ?? null,
      vertical: agent.vertical ?? null,
      tags: [],
    },
  } as TemplateVersion;
}

/** The template record of generation 2: `{id, name, timestamps, published_version_id, published_version}`. */
export function templateRecord(name: string, published: TemplateVersion) {
  return {
    id: stableUuid(`template:${name}`),
    name,
    created_at: published.created_at ?? CREATED,
    updated_at: published.created_at ?? CREATED,
    published_version_id: published.id ?? null,
    published_version: published,
  };
}

/** An agent of the catalog as a template record, if there is one of that name. */
export function agentTemplateRecord(state: SandboxState, name: string) {
  const agent = state.catalog.get(name);
  return agent ? templateRecord(name, agentVersion(agent)) : undefined;
}

/** Every template record: the store's, then the catalog's agents of other names. */
export function templateRecords(state: SandboxState) {
  const own = state.templates.names();
  const taken = new Set(own);
  const agents = state.catalog.all().filter((a) => !taken.has(a.name));
  return [
    ...own.map((n) => state.templates.record(n)).filter((r) => r !== undefined),
    ...agents.map((a) => templateRecord(a.name, agentVersion(a))),
  ];
}
