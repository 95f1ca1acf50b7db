/**
 * A JSON Schema node's limits and allowed values in words ("1–100, default 10"), so that what
 * a model reads in a field's description and in a bad-argument error is the same, and so that
 * models whose schema subset drops `default`, `minLength`, … (Gemini) still learn them.
 */

type Json = Record<string, unknown>;

/** zod's bound for an integer without one: not a limit anybody set. */
const isImplicit = (n: unknown) => typeof n === "number" && Math.abs(n) >= Number.MAX_SAFE_INTEGER;
const num = (n: unknown): number | undefined => (typeof n === "number" && !isImplicit(n) ? n : undefined);

/** "1–100", "2 characters", "at least 1 item" (`unit` plural, made singular after a lone 1). */
function range(min: number | undefined, max: number | undefined, unit = ""): string | undefined {
  const u = (n: number) => (unit ? ` ${n === 1 ? unit.replace(/s$/, "") : unit}` : "");
  if (min !== undefined && max !== undefined)
    return min === max ? `${min}${u(min)}` : `${min}–${max}${u(max)}`;
  if (min !== undefined) return `at least ${min}${u(min)}`;
  if (max !== undefined) return `up to ${max}${u(max)}`;
  return undefined;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A map of any names (an object without declared properties): listed as JSON text. */
export const isOpenMap = (node: Json): boolean =>
  node.type === "object" && (!isObject(node.properties) || Object.keys(node.properties).length === 0);

const typesOf = (node: Json): string[] =>
  Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === "string" ? [node.type] : [];

/** The node's bounds in words, without its type: "1–100", "2 characters", "1–1000 items". */
export function boundsText(node: Json): string | undefined {
  const types = typesOf(node);
  if (types.includes("string")) {
    const min = num(node.minLength);
    const max = num(node.maxLength);
    if (min === 1 && max === undefined) return "non-empty";
    return range(min, max, "characters");
  }
  if (types.includes("array")) return range(num(node.minItems), num(node.maxItems), "items");
  if (types.includes("integer") || types.includes("number"))
    return range(num(node.minimum ?? node.exclusiveMinimum), num(node.maximum ?? node.exclusiveMaximum));
  return undefined;
}

const show = (v: unknown) => JSON.stringify(v);

/** Longest string cap a listing says: a model may meet it (a name); a longer one (an id, a query) it does not. */
export const SAID_MAX_LENGTH = 100;

/**
 * The bounds a listing says: all but a string's "non-empty", a string cap over `SAID_MAX_LENGTH`
 * and a count's lower bound 0 (words in every listing that no model call meets; the server still
 * names them when one does).
 */
function listedBounds(node: Json): string | undefined {
  const types = typesOf(node);
  if (types.includes("string")) {
    const min = num(node.minLength);
    const max = num(node.maxLength);
    if (max === undefined || (max > SAID_MAX_LENGTH && min !== max))
      return min !== undefined && min > 1 ? range(min, undefined, "characters") : undefined;
  }
  if (types.includes("integer") && num(node.minimum) === 0 && num(node.maximum) === undefined)
    return undefined;
  return boundsText(node);
}

/**
 * What a description adds: bounds, then the default and an example ("1–100, default 10"). A
 * flag's default `false` goes unsaid: a flag left out is off.
 */
export function limitsText(node: Json): string | undefined {
  const parts: string[] = [];
  const bounds = listedBounds(node);
  if (bounds) parts.push(bounds);
  if (node.default !== undefined && node.default !== false) parts.push(`default ${show(node.default)}`);
  const example = Array.isArray(node.examples) ? node.examples[0] : undefined;
  if (example !== undefined) parts.push(`e.g. ${show(example)}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

/** What a value must be, for an error: "an integer 1–100", "one of: desktop, mobile". */
export function allowedText(node: Json): string {
  if (Array.isArray(node.enum)) return `one of: ${node.enum.map((v) => String(v)).join(", ")}`;
  const types = typesOf(node).filter((t) => t !== "null");
  const kind = types.map((t) => ARTICLE[t] ?? t).join(" or ") || "any value";
  const bounds = boundsText(node);
  const items = node.items as Json | undefined;
  const of = types.includes("array") && items && typeof items === "object" ? ` of ${allowedItem(items)}` : "";
  return `${kind}${of}${bounds ? ` (${bounds})` : ""}`;
}

function allowedItem(items: Json): string {
  if (Array.isArray(items.enum)) return `values among ${items.enum.map((v) => String(v)).join(", ")}`;
  const t = typesOf(items)[0];
  return t ? `${t}s` : "values";
}
