/**
 * A template version's JSON-Schema `input_schema` → a zod validator, through zod 4's own
 * `z.fromJSONSchema`. A schema it cannot convert (an unsupported keyword or type, a dangling
 * `$ref`) degrades to "any object" with a note: the API still validates such params itself.
 * `pattern`s are taken out before the conversion (zod would run them on the backtracking engine)
 * and checked on the linear one (`linearPattern`) where `properties`/`items` reach them.
 */
import { z } from "zod";
import { linearPattern } from "./linear-pattern.js";

export interface TemplateInputSchema {
  schema: z.ZodType;
  notes: string[];
  exact: boolean;
}

const permissive = () => z.record(z.string(), z.unknown());

/**
 * One conversion per schema object: a version's `input_schema` is read-only once fetched, and
 * is checked on every run (each item of a batch) and described on every refused one.
 */
const converted = new WeakMap<object, TemplateInputSchema>();

export function templateInputSchema(input: unknown): TemplateInputSchema {
  if (!input || typeof input !== "object" || Array.isArray(input) || Object.keys(input).length === 0) {
    return { schema: permissive(), notes: [], exact: false };
  }
  let result = converted.get(input);
  if (!result) {
    result = convert(input);
    converted.set(input, result);
  }
  return result;
}

function convert(input: object): TemplateInputSchema {
  try {
    const fromJson = z.fromJSONSchema(withoutPatterns(input) as Parameters<typeof z.fromJSONSchema>[0]);
    const schema = fromJson.superRefine((value, ctx) => checkPatterns(input, value, [], ctx));
    return { schema, notes: [], exact: true };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      schema: permissive(),
      notes: [`input_schema not checked locally (${why}); the API validates the params`],
      exact: false,
    };
  }
}

/** A copy of a JSON Schema without any `pattern` keyword. */
function withoutPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern" && typeof value === "string") continue;
    out[key] = withoutPatterns(value);
  }
  return out;
}

/** Each string `properties`/`items` lead to, against its node's `pattern` on the linear engine. */
function checkPatterns(node: unknown, value: unknown, path: PropertyKey[], ctx: z.RefinementCtx): void {
  if (!node || typeof node !== "object") return;
  const schema = node as { pattern?: unknown; properties?: Record<string, unknown>; items?: unknown };
  if (typeof value === "string" && typeof schema.pattern === "string") {
    const pattern = linearPattern(schema.pattern);
    if (pattern && !pattern.test(value))
      ctx.addIssue({ code: "custom", path, message: `must match the pattern ${schema.pattern}` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      checkPatterns(schema.items, item, [...path, i], ctx);
    });
  } else if (value && typeof value === "object" && schema.properties) {
    for (const [key, sub] of Object.entries(schema.properties))
      checkPatterns(sub, (value as Record<string, unknown>)[key], [...path, key], ctx);
  }
}

interface JsonSchemaLike {
  description?: string;
  examples?: unknown[];
  properties?: Record<string, JsonSchemaLike>;
  items?: JsonSchemaLike;
}

/** The `description` (and first example) the JSON Schema gives for a path, if any. */
function describeAt(schema: unknown, path: readonly PropertyKey[]): string | undefined {
  let node = schema as JsonSchemaLike | undefined;
  for (const key of path) {
    if (!node || typeof node !== "object") return undefined;
    node = typeof key === "number" ? node.items : node.properties?.[String(key)];
  }
  if (!node || typeof node !== "object") return undefined;
  const parts: string[] = [];
  if (typeof node.description === "string") parts.push(node.description);
  if (Array.isArray(node.examples) && node.examples.length > 0) {
    parts.push(`Example: ${JSON.stringify(node.examples[0])}`);
  }
  return parts.length > 0 ? parts.join(". ") : undefined;
}

/** One line per issue: `params.url: Invalid URL — The product page URL. Example: "https://…"`. */
export function templateIssues(error: z.ZodError, input: unknown): string[] {
  return error.issues.map((issue) => {
    const where = ["params", ...issue.path.map(String)].join(".");
    const about = describeAt(input, issue.path);
    return `${where}: ${issue.message}${about ? ` — ${about}` : ""}`;
  });
}
