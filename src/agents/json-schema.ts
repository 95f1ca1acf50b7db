/**
 * A template version's JSON-Schema `input_schema` → a zod validator, through zod 4's own
 * `z.fromJSONSchema`. A schema it cannot convert (an unsupported keyword or type, a dangling
 * `$ref`) degrades to "any object" with a note: the API still validates such params itself.
 */
import { z } from "zod";

export interface TemplateInputSchema {
  schema: z.ZodType;
  notes: string[];
  exact: boolean;
}

const permissive = () => z.record(z.string(), z.unknown());

export function templateInputSchema(input: unknown): TemplateInputSchema {
  if (!input || typeof input !== "object" || Array.isArray(input) || Object.keys(input).length === 0) {
    return { schema: permissive(), notes: [], exact: false };
  }
  try {
    const schema = z.fromJSONSchema(input as Parameters<typeof z.fromJSONSchema>[0]);
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
