/**
 * Generation-2 extract templates read as the agents of generation 1 (§13 and §17.2 of
 * web-data-api-v2.md), so the catalog, `list_agents`, `run_agent` and the `agent_<name>` tools
 * work on either: a template listing `{items, limit, offset, total}` → agent records; a template
 * record → agent detail, with `published_version.input_schema` (a JSON Schema) turned into
 * `input_properties`, which the one params compiler (src/agents/input-schema.ts) reads. JSON
 * Schema keywords become the rule strings of src/agents/rules.ts. Generation 2 has no
 * pagination or localization flags: an integer `page`-like property counts as the pagination
 * param, a `country`/`locale`/`language` one as a localization param.
 */
import { isObj } from "./normalize.js";

type Obj = Record<string, unknown>;

const PAGINATION = /^(page|page_number|pagenumber|page_num|start_page)$/i;
const LOCALIZATION = /^(country|locale|language|lang|region)$/i;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The JSON Schema's type as the input-property type vocabulary ("string", "array[string]", …). */
function typeName(p: Obj): string {
  const raw = Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type;
  if (raw === "array") {
    const item = isObj(p.items) ? str(p.items.type) : undefined;
    return item ? `array[${item}]` : "array";
  }
  if (typeof raw === "string") return raw;
  if (Array.isArray(p.enum)) return "string";
  return "unknown";
}

const KEYWORD_RULES: [string, string][] = [
  ["minLength", "min_length"],
  ["maxLength", "max_length"],
  ["minimum", "min"],
  ["maximum", "max"],
  ["minItems", "min_items"],
  ["maxItems", "max_items"],
];

function rulesOf(p: Obj): string[] {
  const rules: string[] = [];
  for (const [keyword, rule] of KEYWORD_RULES) {
    if (typeof p[keyword] === "number") rules.push(`${rule}:${p[keyword]}`);
  }
  if (typeof p.pattern === "string") rules.push(`pattern:${p.pattern}`);
  if (
    Array.isArray(p.enum) &&
    p.enum.length > 0 &&
    p.enum.every((v) => typeof v === "string" && !v.includes("|"))
  ) {
    rules.push(`one_of:${p.enum.join("|")}`);
  }
  if (p.format === "uri" || p.format === "url") rules.push("url");
  if (p.format === "email") rules.push("email");
  return rules;
}

/** A template's `input_schema` → `input_properties`; undefined when it lists no properties. */
export function inputPropertiesFromJsonSchema(schema: unknown): Obj[] | undefined {
  if (!isObj(schema) || !isObj(schema.properties)) return undefined;
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
  );
  return Object.entries(schema.properties).map(([name, raw]) => {
    const p = isObj(raw) ? raw : {};
    const type = typeName(p);
    return {
      name,
      required: required.has(name),
      type,
      description: str(p.description) ?? str(p.title) ?? "",
      rules: rulesOf(p),
      examples: Array.isArray(p.examples) ? p.examples : null,
      default: p.default ?? null,
      is_localization_param: LOCALIZATION.test(name),
      is_pagination_param: PAGINATION.test(name) && (type === "integer" || type === "number"),
    };
  });
}

/** The agent-record members of a template record (its published version's metadata). */
function recordOf(t: Obj): Obj {
  const version = isObj(t.published_version) ? t.published_version : {};
  const meta = isObj(version.metadata) ? version.metadata : {};
  const name = str(t.name) ?? str(version.name);
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    ...(name !== undefined ? { name } : {}),
    display_name: str(meta.display_name) ?? name,
    description: str(meta.description),
    vertical: str(meta.vertical),
    entity_type: str(meta.entity_type),
    domain: str(meta.domain),
  };
}

/** `{items: [template record]}` (generation 2) → agent records; an array passes as it is. */
export function templatePageAsAgents(answer: unknown): unknown {
  if (!isObj(answer) || !Array.isArray(answer.items)) return answer;
  return answer.items.filter(isObj).map(recordOf);
}

/** A template record (generation 2) → agent detail; an agent detail passes as it is. */
export function templateAsAgentDetail(answer: unknown): unknown {
  if (!isObj(answer) || !("published_version" in answer) || "input_properties" in answer) return answer;
  const version = isObj(answer.published_version) ? answer.published_version : {};
  const inputs = inputPropertiesFromJsonSchema(version.input_schema);
  return {
    ...recordOf(answer),
    output_schema: isObj(version.output_schema) ? version.output_schema : null,
    ...(inputs !== undefined ? { input_properties: inputs } : {}),
  };
}
