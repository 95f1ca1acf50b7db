/**
 * An agent's `input_properties` → a zod object schema for its `params`. Each field keeps the
 * agent's description, examples and default (they show in the JSON Schema of dedicated tools)
 * and raises errors in the agent's own words. Unknown types or rules never throw: the field
 * becomes permissive and a note says why.
 */
import { z } from "zod";
import type { InputProperty } from "../api/schemas.js";
import { linearPattern } from "./linear-pattern.js";
import { paramMessage, unknownParamsMessage } from "./messages.js";
import { type ParsedRules, parseRules } from "./rules.js";

export interface ParamsSchema {
  /** Strict object of the agent's params, or a loose empty object when the agent lists none. */
  schema: z.ZodObject;
  properties: InputProperty[];
  /** Degradations (unknown types or rules) the caller may surface. */
  notes: string[];
  /** Name of the param that `pages` increments, when the agent has one. */
  paginationParam?: string;
  localizationParams: string[];
  /** False when the agent published no `input_properties`: anything is accepted. */
  exact: boolean;
}

export type Kind = "string" | "integer" | "number" | "boolean" | "array" | "object" | "unknown";

const TYPE_ALIASES: Record<string, Kind> = {
  string: "string",
  str: "string",
  text: "string",
  url: "string",
  uri: "string",
  email: "string",
  date: "string",
  datetime: "string",
  enum: "string",
  integer: "integer",
  int: "integer",
  number: "number",
  float: "number",
  double: "number",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  object: "object",
  dict: "object",
  json: "object",
};

/** "string", "array[string]", "list[int]", "string[]" → kind and item kind. */
export function parseType(type: string): { kind: Kind; item?: Kind } {
  const t = type.trim().toLowerCase();
  const generic = /^(array|list)\s*[[<(]\s*([a-z]+)\s*[\]>)]$/.exec(t) ?? /^([a-z]+)\[\]$/.exec(t);
  if (generic) {
    const itemName = generic.length === 3 ? generic[2] : generic[1];
    return { kind: "array", item: TYPE_ALIASES[itemName] ?? "unknown" };
  }
  return { kind: TYPE_ALIASES[t] ?? "unknown" };
}

type ErrorFn = (iss: z.core.$ZodRawIssue) => string;

function scalar(kind: Kind, error: ErrorFn): z.ZodType {
  switch (kind) {
    case "string":
      return z.string({ error });
    case "integer":
      return z.int({ error });
    case "number":
      return z.number({ error });
    case "boolean":
      return z.boolean({ error });
    case "object":
      return z.record(z.string(), z.unknown(), { error });
    case "array":
      return z.array(z.unknown(), { error });
    default:
      return z.unknown();
  }
}

/** Applies rules that fit the kind; returns the rules that did not apply. */
function applyRules(kind: Kind, r: ParsedRules, error: ErrorFn, item?: Kind): [z.ZodType, string[]] {
  const skipped: string[] = [];
  if (r.oneOf && (kind === "string" || kind === "integer" || kind === "number")) {
    if (kind === "string") return [z.enum(r.oneOf as [string, ...string[]], { error }), skipped];
    const nums = r.oneOf.map(Number);
    if (nums.every(Number.isFinite)) return [z.literal(nums, { error }), skipped];
    skipped.push(`one_of:${r.oneOf.join("|")}`);
  } else if (r.oneOf) skipped.push(`one_of:${r.oneOf.join("|")}`);
  let s = scalar(kind, error);
  if (kind === "string") {
    let str = s as z.ZodString;
    if (r.format === "url") str = str.regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/i, "must be a URL");
    if (r.format === "email") str = str.email();
    if (r.minLength !== undefined) str = str.min(r.minLength);
    if (r.maxLength !== undefined) str = str.max(r.maxLength);
    if (r.pattern !== undefined) {
      const pattern = linearPattern(r.pattern);
      if (pattern) str = str.regex(pattern);
      else skipped.push(unrunnable(r.pattern));
    }
    s = str;
    if (r.min !== undefined || r.max !== undefined) skipped.push("min/max on a string");
  } else if (kind === "integer" || kind === "number") {
    let num = s as z.ZodNumber;
    if (r.min !== undefined) num = num.min(r.min);
    if (r.max !== undefined) num = num.max(r.max);
    s = num;
    if (r.minLength !== undefined || r.maxLength !== undefined || r.pattern !== undefined)
      skipped.push("length/pattern on a number");
  } else if (kind === "array") {
    const itemError: ErrorFn = (iss) => error({ ...iss, item: true } as z.core.$ZodRawIssue);
    let arr = z.array(item ? applyItemRules(item, r, itemError) : z.unknown(), { error });
    const min = r.minItems ?? r.minLength;
    const max = r.maxItems ?? r.maxLength;
    if (min !== undefined) arr = arr.min(min);
    if (max !== undefined) arr = arr.max(max);
    s = arr;
  } else if (hasConstraints(r)) {
    skipped.push(`rules on type ${kind}`);
  }
  return [s, skipped];
}

/** For typed arrays, a pattern applies to each string item. */
function applyItemRules(item: Kind, r: ParsedRules, error: ErrorFn): z.ZodType {
  const s = scalar(item, error);
  const pattern = item === "string" && r.pattern ? linearPattern(r.pattern) : undefined;
  return pattern ? (s as z.ZodString).regex(pattern) : s;
}

const unrunnable = (pattern: string) =>
  `pattern ${JSON.stringify(pattern)} not checked locally (it needs a backtracking engine; the API checks it)`;

function hasConstraints(r: ParsedRules): boolean {
  return [r.minLength, r.maxLength, r.min, r.max, r.pattern, r.format].some((v) => v !== undefined);
}

export function buildParamSchema(prop: InputProperty): { schema: z.ZodType; notes: string[] } {
  const notes: string[] = [];
  const { kind, item } = parseType(typeof prop.type === "string" ? prop.type : String(prop.type));
  if (kind === "unknown") notes.push(`param "${prop.name}": unknown type "${prop.type}", any value accepted`);
  if (item === "unknown") notes.push(`param "${prop.name}": unknown item type in "${prop.type}"`);
  const rules = parseRules(prop.rules);
  for (const u of rules.unknown) notes.push(`param "${prop.name}": rule "${u}" not understood, not checked`);
  const error: ErrorFn = (iss) => paramMessage(prop, iss, (iss as { item?: boolean }).item === true);
  // An unknown type accepts any value, but a required one must still be present.
  const anyValue = z.unknown().refine((v) => v !== undefined, { error });
  const [ruled, skipped] = kind === "unknown" ? [anyValue, []] : applyRules(kind, rules, error, item);
  for (const s of skipped) notes.push(`param "${prop.name}": ${s} ignored`);
  let schema: z.ZodType = ruled;
  const meta: Record<string, unknown> = {};
  if (prop.description) meta.description = prop.description;
  if (Array.isArray(prop.examples) && prop.examples.length > 0) meta.examples = prop.examples;
  if (prop.default !== null && prop.default !== undefined) meta.default = prop.default;
  if (prop.is_pagination_param) meta["x-pagination-param"] = true;
  if (prop.is_localization_param) meta["x-localization-param"] = true;
  if (!prop.required) schema = schema.optional();
  if (Object.keys(meta).length > 0) schema = schema.meta(meta);
  return { schema, notes };
}

export function buildParamsSchema(props: readonly InputProperty[] | null | undefined): ParamsSchema {
  if (!Array.isArray(props)) {
    return { schema: z.looseObject({}), properties: [], notes: [], localizationParams: [], exact: false };
  }
  const shape: Record<string, z.ZodType> = {};
  const notes: string[] = [];
  const properties: InputProperty[] = [];
  for (const prop of props) {
    if (!prop || typeof prop.name !== "string" || prop.name === "" || shape[prop.name]) continue;
    const built = buildParamSchema(prop);
    shape[prop.name] = built.schema;
    notes.push(...built.notes);
    properties.push(prop);
  }
  const schema = z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? unknownParamsMessage((iss as { keys: string[] }).keys, properties)
        : "params must be an object",
  });
  return {
    schema,
    properties,
    notes,
    paginationParam: properties.find((p) => p.is_pagination_param)?.name,
    localizationParams: properties.filter((p) => p.is_localization_param).map((p) => p.name),
    exact: true,
  };
}
