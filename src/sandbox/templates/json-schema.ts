/**
 * Template params checked against a version's JSON Schema by ajv (every error, not the first),
 * its `pattern`s run on RE2 (`matchesPattern`: linear time, a pattern RE2 cannot run matches
 * anything), each error worded as the service's pydantic-style 422 detail.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
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

/**
 * ajv's RegExp engine: RE2 through `matchesPattern` (no backtracking on data's patterns). ajv keys
 * its compiled patterns by the engine's `toString()`, so each pattern must print as itself: with
 * one shared string every pattern of a schema ran as the first one compiled.
 */
const linear = Object.assign(
  (pattern: string) => ({
    test: (s: string) => matchesPattern(pattern, s),
    toString: () => `/${pattern}/`,
  }),
  { code: "matchesPattern" },
);

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { regExp: linear } });
/** One compiled check per schema object (a version's input_schema does not change). */
const compiled = new WeakMap<Schema, ValidateFunction>();

function validatorOf(schema: Schema): ValidateFunction | undefined {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return undefined;
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** The instance path (`/a/0`) as a loc: array indexes as numbers. */
function locOf(loc: Loc, path: string, value: unknown): Loc {
  const out = [...loc];
  let at = value;
  for (const raw of path.split("/").slice(1)) {
    const name = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(at) ? Number(name) : undefined;
    out.push(index ?? name);
    at = (at as Record<string, unknown> | undefined)?.[name];
  }
  return out;
}

function detailOf(e: ErrorObject, loc: Loc, value: unknown): ValidationDetail | undefined {
  const where = locOf(loc, e.instancePath, value);
  const input = e.data;
  const p = e.params as Record<string, any>;
  const said = (type: string, msg: string, ctx?: Record<string, unknown>) => ({
    loc: where,
    msg,
    type,
    input,
    ...(ctx ? { ctx } : {}),
  });
  switch (e.keyword) {
    case "type": {
      const [type, msg] = TYPE_ERRORS[p.type] ?? ["value_error", `Input should be of type ${p.type}`];
      return said(type, msg);
    }
    case "enum": {
      const expected = (p.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(", ");
      return said("enum", `Input should be ${expected}`, { expected });
    }
    case "minLength":
      return said("string_too_short", `String should have at least ${p.limit} characters`, {
        min_length: p.limit,
      });
    case "maxLength":
      return said("string_too_long", `String should have at most ${p.limit} characters`, {
        max_length: p.limit,
      });
    case "pattern":
      return said("string_pattern_mismatch", `String should match pattern '${p.pattern}'`, {
        pattern: p.pattern,
      });
    case "minimum":
      return said("greater_than_equal", `Input should be greater than or equal to ${p.limit}`, {
        ge: p.limit,
      });
    case "maximum":
      return said("less_than_equal", `Input should be less than or equal to ${p.limit}`, { le: p.limit });
    case "minItems":
      return said("too_short", `List should have at least ${p.limit} items`, { min_length: p.limit });
    case "maxItems":
      return said("too_long", `List should have at most ${p.limit} items`, { max_length: p.limit });
    case "required":
      return { loc: [...where, p.missingProperty], msg: "Field required", type: "missing" };
    case "additionalProperties":
      return {
        loc: [...where, p.additionalProperty],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
        input: (input as Record<string, unknown>)?.[p.additionalProperty],
      };
    default:
      return said("value_error", `Value error, ${e.message ?? e.keyword}`);
  }
}

/** The pydantic-style details of every way `value` fails `schema` (none: it passes). */
export function checkJsonSchema(schema: Schema, value: unknown, loc: Loc): ValidationDetail[] {
  const validate = validatorOf(schema);
  if (!validate || validate(value)) return [];
  // A value of the wrong type is said once, not with the type's other keywords.
  const errors = validate.errors ?? [];
  const mistyped = new Set(errors.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  return errors
    .filter((e) => e.keyword === "type" || !mistyped.has(e.instancePath) || e.keyword === "required")
    .map((e) => detailOf(e, loc, value))
    .filter((d): d is ValidationDetail => d !== undefined);
}
