/**
 * An agent's `output_schema` (field name → fragment with `type`, `description`, `format`,
 * `minimum`/`maximum`, `items`/`properties`) → a zod schema of its `data.parsing`.
 *
 * Output schemas describe, they do not police: a run that returns an extra field, a null or a
 * value outside `minimum`/`maximum` is still a successful run, so every field is optional
 * (nulls are removed first with `stripNulls`: a `nullable` would hide each field's type behind
 * an `anyOf` in tools/list), objects keep unknown members, and `format`/`minimum`/`maximum` are carried as
 * `x-format`/`x-minimum`/`x-maximum` annotations only (a client validating `format: uri` with
 * ajv would otherwise reject a result the agent returned). Unknown types degrade to "any value"
 * with a note.
 */
import { z } from "zod";
import type { OutputFragment } from "../api/schemas.js";

const MAX_DEPTH = 8;

export interface OutputSchema {
  schema: z.ZodObject;
  notes: string[];
  /** False when the agent published no `output_schema`. */
  exact: boolean;
}

function fragment(f: unknown, path: string, depth: number, notes: string[]): z.ZodType {
  if (!f || typeof f !== "object" || Array.isArray(f)) {
    notes.push(`output "${path}": not a schema fragment, any value accepted`);
    return z.unknown();
  }
  const frag = f as OutputFragment;
  const type = typeof frag.type === "string" ? frag.type.toLowerCase() : String(frag.type);
  let s: z.ZodType;
  if (depth > MAX_DEPTH) {
    notes.push(`output "${path}": nested deeper than ${MAX_DEPTH}, any value accepted`);
    s = z.unknown();
  } else if (type === "string") s = z.string();
  else if (type === "number") s = z.number();
  else if (type === "integer") s = z.number().int();
  else if (type === "boolean") s = z.boolean();
  else if (type === "array") {
    s = z.array(frag.items ? fragment(frag.items, `${path}[]`, depth + 1, notes) : z.unknown());
  } else if (type === "object") {
    s = frag.properties ? fields(frag.properties, `${path}.`, depth + 1, notes) : z.looseObject({});
  } else {
    notes.push(`output "${path}": unknown type "${frag.type}", any value accepted`);
    s = z.unknown();
  }
  const meta: Record<string, unknown> = {};
  if (typeof frag.description === "string") meta.description = frag.description;
  if (typeof frag.format === "string") meta["x-format"] = frag.format;
  if (typeof frag.minimum === "number") meta["x-minimum"] = frag.minimum;
  if (typeof frag.maximum === "number") meta["x-maximum"] = frag.maximum;
  return Object.keys(meta).length > 0 ? s.meta(meta) : s;
}

function fields(props: Record<string, unknown>, prefix: string, depth: number, notes: string[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(props)) {
    shape[name] = fragment(f, `${prefix}${name}`, depth, notes).optional();
  }
  return z.looseObject(shape);
}

export function buildOutputSchema(output: Record<string, unknown> | null | undefined): OutputSchema {
  const notes: string[] = [];
  if (!output || typeof output !== "object" || Array.isArray(output)) {
    return { schema: z.looseObject({}), notes, exact: false };
  }
  return { schema: fields(output, "", 1, notes), notes, exact: true };
}

/** Drops null object members and null array items, at every depth (null reads as "absent"). */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(stripNulls);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = stripNulls(v);
  return out;
}
