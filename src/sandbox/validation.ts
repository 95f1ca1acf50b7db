/**
 * Turns zod issues into the service's 422 body, worded the way pydantic (the service's
 * validation library) words them: `{detail: [{loc, msg, type, input?, ctx?}]}`.
 */
import type { z } from "zod";
import type { ValidationDetail } from "../api/schemas.js";

type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  number: ["float_type", "Input should be a valid number"],
  int: ["int_type", "Input should be a valid integer"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["dict_type", "Input should be a valid dictionary"],
  record: ["dict_type", "Input should be a valid dictionary"],
};

function bound(issue: Issue & { code: "too_small" | "too_big" }): ValidationDetail {
  const small = issue.code === "too_small";
  const limit = Number(small ? issue.minimum : issue.maximum);
  const origin = issue.origin;
  if (origin === "string") {
    const [type, word] = small ? ["string_too_short", "at least"] : ["string_too_long", "at most"];
    const unit = limit === 1 ? "character" : "characters";
    const key = small ? "min_length" : "max_length";
    return { loc: [], type, msg: `String should have ${word} ${limit} ${unit}`, ctx: { [key]: limit } };
  }
  if (origin === "array" || origin === "set") {
    const [type, word] = small ? ["too_short", "at least"] : ["too_long", "at most"];
    const count = Array.isArray(issue.input) ? issue.input.length : undefined;
    const tail = count === undefined ? "" : ` after validation, not ${count}`;
    const unit = limit === 1 ? "item" : "items";
    return {
      loc: [],
      type,
      msg: `List should have ${word} ${limit} ${unit}${tail}`,
      ctx: { field_type: "List", [small ? "min_length" : "max_length"]: limit },
    };
  }
  const inclusive = issue.inclusive !== false;
  const relation = small ? "greater than" : "less than";
  const type = `${small ? "greater_than" : "less_than"}${inclusive ? "_equal" : ""}`;
  const key = small ? (inclusive ? "ge" : "gt") : inclusive ? "le" : "lt";
  return {
    loc: [],
    type,
    msg: `Input should be ${relation}${inclusive ? " or equal to" : ""} ${limit}`,
    ctx: { [key]: limit },
  };
}

function describe(issue: Issue): ValidationDetail {
  const absent =
    issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value");
  if (absent) return { loc: [], type: "missing", msg: "Field required" };
  switch (issue.code) {
    case "invalid_type": {
      if (issue.path.length === 0 && issue.expected === "object") {
        return {
          loc: [],
          type: "model_attributes_type",
          msg: "Input should be a valid dictionary or object to extract fields from",
        };
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? ["value_error", issue.message];
      return { loc: [], type, msg };
    }
    case "too_small":
    case "too_big":
      return bound(issue);
    case "invalid_value": {
      const expected = issue.values.map((v) => `'${String(v)}'`).join(", ");
      return {
        loc: [],
        type: "enum",
        msg: `Input should be ${expected.replace(/, ([^,]*)$/, " or $1")}`,
        ctx: { expected },
      };
    }
    case "invalid_format":
      if (issue.format === "url") {
        return { loc: [], type: "url_parsing", msg: "Input should be a valid URL" };
      }
      if (issue.format === "regex") {
        const pattern = (issue as { pattern?: string }).pattern;
        return {
          loc: [],
          type: "string_pattern_mismatch",
          msg: issue.message.startsWith("Invalid")
            ? `String should match pattern '${pattern}'`
            : issue.message,
          ctx: { pattern },
        };
      }
      return { loc: [], type: "value_error", msg: issue.message };
    default:
      return { loc: [], type: "value_error", msg: `Value error, ${issue.message}` };
  }
}

/** One pydantic-style detail per zod issue, located under `root` ("body" or "query"). */
export function toDetails(root: string, issues: readonly Issue[]): ValidationDetail[] {
  return issues.map((issue) => {
    const detail = describe(issue);
    const input = issue.input;
    return {
      ...detail,
      loc: [root, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      ...(input === undefined ? {} : { input }),
    };
  });
}

/** Parses `value` with `schema`; returns either the data or the 422 details. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root: string,
): { ok: true; data: z.output<S> } | { ok: false; detail: ValidationDetail[] } {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, detail: toDetails(root, result.error.issues) };
}
