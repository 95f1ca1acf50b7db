/**
 * Wording of parameter errors in the agent's own words: every message about a parameter
 * carries the agent's `description` of it and its `examples`, so a model can fix the call.
 */
import type { z } from "zod";
import type { InputProperty } from "../api/schemas.js";

const MAX_EXAMPLE_CHARS = 80;

function show(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > MAX_EXAMPLE_CHARS ? `${s.slice(0, MAX_EXAMPLE_CHARS - 1)}…` : s;
}

/** `"query" (string, required): Search keyword. Examples: "laptop", "tv". Rules: min_length:3.` */
export function describeParam(prop: InputProperty): string {
  const parts = [`"${prop.name}" (${prop.type}${prop.required ? ", required" : ""})`];
  let text = `${parts[0]}: ${prop.description?.trim() || "no description"}`;
  if (!/[.!?]$/.test(text)) text += ".";
  if (prop.examples && prop.examples.length > 0) {
    text += ` Examples: ${prop.examples.slice(0, 3).map(show).join(", ")}.`;
  }
  if (prop.default !== null && prop.default !== undefined) text += ` Default: ${show(prop.default)}.`;
  if (prop.rules && prop.rules.length > 0) text += ` Rules: ${prop.rules.join(", ")}.`;
  return text;
}

/** What is wrong, in a few words, from one zod issue raised by a parameter's schema. */
export function reason(issue: z.core.$ZodRawIssue): string {
  const i = issue as Record<string, any>;
  if (i.input === undefined) return "is required but missing";
  switch (issue.code) {
    case "invalid_type":
      if (i.expected === "int") return `must be an integer, got ${kindOf(i.input)}`;
      return `must be ${article(String(i.expected))}, got ${kindOf(i.input)}`;
    case "too_small":
      if (i.origin === "string") return `must be at least ${i.minimum} characters long`;
      if (i.origin === "array") return `must have at least ${i.minimum} items`;
      return `must be ${i.inclusive === false ? ">" : ">="} ${i.minimum}`;
    case "too_big":
      if (i.origin === "string") return `must be at most ${i.maximum} characters long`;
      if (i.origin === "array") return `must have at most ${i.maximum} items`;
      return `must be ${i.inclusive === false ? "<" : "<="} ${i.maximum}`;
    case "invalid_format":
      if (i.format === "regex") return `must match the pattern ${i.pattern}`;
      return `must be a valid ${i.format}`;
    case "invalid_value":
      return `must be one of ${(i.values as unknown[]).map(show).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${i.divisor}`;
    default:
      return issue.message ?? "is invalid";
  }
}

function article(t: string): string {
  return /^[aeiou]/i.test(t) ? `an ${t}` : `a ${t}`;
}

export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number") return `the number ${v}`;
  if (typeof v === "string") return `the string ${show(v)}`;
  return typeof v === "object" ? "an object" : `${article(typeof v)} ${show(v)}`;
}

/** The full message for one bad parameter: what is wrong, then the agent's words about it. */
export function paramMessage(prop: InputProperty, issue: z.core.$ZodRawIssue, item = false): string {
  const i = issue as { code: string; input?: unknown };
  // A wrong type of the param itself is named with the agent's own type name.
  const own = !item && i.code === "invalid_type" && i.input !== undefined;
  const what = own ? `must be ${article(prop.type)}, got ${kindOf(i.input)}` : reason(issue);
  return `param "${prop.name}"${item ? " item" : ""} ${what}. ${describeParam(prop)}`;
}

/** Message for parameters the agent does not take. */
export function unknownParamsMessage(keys: readonly string[], props: readonly InputProperty[]): string {
  const known = props.map((p) => p.name);
  return `unknown param${keys.length > 1 ? "s" : ""} ${keys.map((k) => `"${k}"`).join(", ")}; this agent takes: ${
    known.length > 0 ? known.join(", ") : "no params"
  }`;
}
