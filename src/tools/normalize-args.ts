/**
 * Arguments as a model in strict mode sends them, brought to what the zod schemas check: `null`
 * for an optional argument means "not given" (strict mode lists every property as required and
 * the optional ones as nullable), and a map of any names listed as JSON text (strict mode has no
 * open objects) is parsed back into an object. The object form itself stays accepted.
 */
import { z } from "zod";

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; catchall?: z.ZodType };

const defOf = (schema: z.ZodType): Def => schema.def as Def;

/** The schema under optional / default / nullable / readonly wrappers and a pipe's input side. */
function core(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    const next = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!next) return s;
    s = next;
  }
  return s;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A record, or an object that declares no member and takes any. */
function isOpenMap(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === "record") return true;
  return (
    schema instanceof z.ZodObject &&
    Object.keys(schema.shape).length === 0 &&
    def.catchall !== undefined &&
    defOf(def.catchall).type !== "never"
  );
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const meansAbsent = (field: z.ZodType) =>
  !field.safeParse(null).success && field.safeParse(undefined).success;

/** `value` with nulls of optional members dropped and JSON-text maps parsed, at any depth. */
export function normalizeArgs(schema: z.ZodType, value: unknown): unknown {
  const base = core(schema);
  if (typeof value === "string" && isOpenMap(base)) return parsedObject(value) ?? value;
  if (base instanceof z.ZodObject && isPlainObject(value)) {
    const shape = base.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const field = shape[key];
      if (!field) out[key] = member;
      else if (member === null && meansAbsent(field)) continue;
      else out[key] = normalizeArgs(field, member);
    }
    return out;
  }
  const element = defOf(base).element;
  if (defOf(base).type === "array" && element && Array.isArray(value))
    return value.map((item) => normalizeArgs(element, item));
  return value;
}
