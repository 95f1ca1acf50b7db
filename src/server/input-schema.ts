/**
 * A tool's input JSON Schema (from zod) as every model API and agent framework takes it, made at
 * listing time for every tool alike. Types and enums are keywords; every limit, default, example
 * is said in the field's description instead ("1–100, default 10"), and zod checks them all at
 * call time:
 * - OpenAI strict mode: what its converters (`convertSchemasToStrict` of the Agents SDKs) need to
 *   close every object and require every property without changing what is accepted: declared
 *   properties and no open `additionalProperties`, an optional one nullable (call-tool.ts reads
 *   `null` as absent), only the `format` values strict mode allows (no `uri`), no `default`,
 *   `minLength`, `maxLength`, `examples`. A map of any names (a record) is listed as a string of
 *   JSON object text (strict mode has no open maps), parsed back at call time.
 * - Gemini: enums typed `type: "string"`, the limits in words (it drops those keywords).
 * - Frameworks that check a call against the listed schema before sending it (LangChain) refuse
 *   with a bare "did not match expected schema": so ranges, lengths and unknown names are left to
 *   the server, whose answer names the field, the range and the nearest real name. Only optional
 *   members are left out of `required`, so a model may omit them.
 * - Still plain JSON Schema for MCP clients and Anthropic.
 */
import { isOpenMap, limitsText } from "../tools/schema-text.js";

type Json = Record<string, unknown>;

/** The `format` values OpenAI's strict mode accepts; others (e.g. `uri`) are left out. */
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** Kept as they are; everything else is rebuilt below, said in the description, or left out. */
const KEPT = ["type", "enum", "const"] as const;

const JSON_TEXT_NOTE = "JSON object text";

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function describe(node: Json, extra?: string): string | undefined {
  const own = typeof node.description === "string" && node.description ? node.description : undefined;
  const limits = [extra, limitsText(node)].filter(Boolean).join(", ") || undefined;
  if (own && limits) return own.endsWith(")") ? `${own.slice(0, -1)}; ${limits})` : `${own} (${limits})`;
  return own ?? limits;
}

/** One node, not nullable; `description` first so a model reads it before the rules. */
function convert(node: Json): Json {
  if (isOpenMap(node)) return { description: describe(node, JSON_TEXT_NOTE), type: "string" };
  if (Array.isArray(node.anyOf)) {
    const branches = (node.anyOf as Json[]).filter((b) => !isOpenMap(b)).map(convert);
    const out: Json = { description: describe(node) };
    if (branches.length === 1) return { ...branches[0], ...withoutUndefined(out) };
    return withoutUndefined({ ...out, anyOf: branches });
  }
  const out: Json = { description: describe(node) };
  if (node.type === undefined && node.enum === undefined && node.const === undefined)
    out.type = ["string", "number", "boolean"];
  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
  if (typeof node.format === "string" && STRICT_FORMATS.has(node.format)) out.format = node.format;
  if (isObject(node.items)) out.items = convert(node.items);
  if (node.type === "object") Object.assign(out, objectMembers(node));
  return withoutUndefined(out);
}

/** Declared members only (an object open to more is listed with just those); optional ones nullable. */
function objectMembers(node: Json): Json {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  return {
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, child]) => {
        const converted = convert(child as Json);
        return [name, required.includes(name) ? converted : nullable(converted)];
      }),
    ),
    ...(required.length > 0 ? { required: Object.keys(properties).filter((n) => required.includes(n)) } : {}),
  };
}

/** Also `null` (read as "not given"): a type list, or an `anyOf` for enums (null is no enum member). */
function nullable(node: Json): Json {
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: "null" }] };
  if (node.enum !== undefined || node.const !== undefined || node.type === undefined) {
    const { description, ...rest } = node;
    return withoutUndefined({ description, anyOf: [rest, { type: "null" }] });
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  return { ...node, type: types.includes("null") ? types : [...types, "null"] };
}

function withoutUndefined(node: Json): Json {
  for (const key of Object.keys(node)) if (node[key] === undefined) delete node[key];
  return node;
}

/** The listed input schema of a tool, from its zod JSON Schema (draft-7, input side). */
export function modelInputSchema(schema: Json): Json {
  return { type: "object", ...objectMembers({ ...schema, type: "object" }) };
}
