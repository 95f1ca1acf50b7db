/**
 * A small JSON Schema checker for template params: type, properties, required,
 * additionalProperties:false, minLength, maxLength, pattern, minimum, maximum, enum, items,
 * minItems, maxItems. Errors are pydantic-style details.
 */
import type { ValidationDetail } from "../../api/schemas.js";
import { matchesPattern } from "../regex.js";

type Schema = Record<string, any>;
type Loc = (string | number)[];

const TYPE_ERRORS: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  integer: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["dict_type", "Input should be a valid dictionary"],
};

function hasType(type: string, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    default:
      return true;
  }
}

type Fail = (type: string, msg: string, ctx?: Record<string, unknown>) => void;

export function checkJsonSchema(schema: Schema, value: unknown, loc: Loc): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  const fail: Fail = (type, msg, ctx) => out.push({ loc, msg, type, input: value, ...(ctx ? { ctx } : {}) });
  if (typeof schema.type === "string" && !hasType(schema.type, value)) {
    const [type, msg] = TYPE_ERRORS[schema.type] ?? ["value_error", `Input should be of type ${schema.type}`];
    fail(type, msg);
    return out;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    const expected = schema.enum.map((e: unknown) => `'${String(e)}'`).join(", ");
    fail("enum", `Input should be ${expected}`, { expected });
  }
  if (typeof value === "string") checkString(schema, value, fail);
  if (typeof value === "number") checkNumber(schema, value, fail);
  if (Array.isArray(value)) out.push(...checkArray(schema, value, loc, fail));
  if (hasType("object", value) && (schema.properties || schema.required))
    out.push(...checkObject(schema, value as Record<string, unknown>, loc));
  return out;
}

function checkString(schema: Schema, value: string, fail: Fail): void {
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    fail("string_too_short", `String should have at least ${schema.minLength} characters`, {
      min_length: schema.minLength,
    });
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    fail("string_too_long", `String should have at most ${schema.maxLength} characters`, {
      max_length: schema.maxLength,
    });
  }
  if (schema.pattern !== undefined && !matchesPattern(schema.pattern, value)) {
    fail("string_pattern_mismatch", `String should match pattern '${schema.pattern}'`, {
      pattern: schema.pattern,
    });
  }
}

function checkNumber(schema: Schema, value: number, fail: Fail): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    fail("greater_than_equal", `Input should be greater than or equal to ${schema.minimum}`, {
      ge: schema.minimum,
    });
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    fail("less_than_equal", `Input should be less than or equal to ${schema.maximum}`, {
      le: schema.maximum,
    });
  }
}

/** The list's own bounds (through `fail`), then its items' problems (returned). */
function checkArray(schema: Schema, value: unknown[], loc: Loc, fail: Fail): ValidationDetail[] {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    fail("too_short", `List should have at least ${schema.minItems} items`, {
      min_length: schema.minItems,
    });
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    fail("too_long", `List should have at most ${schema.maxItems} items`, { max_length: schema.maxItems });
  }
  if (!schema.items) return [];
  return [...value.entries()].flatMap(([i, item]) => checkJsonSchema(schema.items, item, [...loc, i]));
}

function checkObject(schema: Schema, object: Record<string, unknown>, loc: Loc): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  const properties: Record<string, Schema> = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (object[name] === undefined) out.push({ loc: [...loc, name], msg: "Field required", type: "missing" });
  }
  for (const [name, v] of Object.entries(object)) {
    if (properties[name]) out.push(...checkJsonSchema(properties[name], v, [...loc, name]));
    else if (schema.additionalProperties === false) {
      out.push({
        loc: [...loc, name],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
        input: v,
      });
    }
  }
  return out;
}
