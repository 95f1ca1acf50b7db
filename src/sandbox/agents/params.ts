/**
 * Checks a run's `params` against an agent's `input_properties` (rule vocabulary in define.ts)
 * and fills defaults. Problems come back as 422 details whose messages quote the agent's own
 * description of the parameter. Unknown parameters are refused (they are usually typos), except
 * `callback_url`, which the async endpoints read from `params`.
 */
import type { InputProperty, ValidationDetail } from "../../api/schemas.js";
import { matchesPattern } from "../regex.js";

type Loc = (string | number)[];
type Check = { ok: true } | { ok: false; type: string; msg: string; ctx?: Record<string, unknown> };

const OK: Check = { ok: true };
const ALWAYS_ALLOWED = new Set(["callback_url"]);

function typeCheck(type: string, value: unknown): Check {
  switch (type) {
    case "string":
      return typeof value === "string" ? OK : { ok: false, type: "string_type", msg: "must be a string" };
    case "integer":
      return Number.isInteger(value) ? OK : { ok: false, type: "int_type", msg: "must be an integer" };
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? OK
        : { ok: false, type: "float_type", msg: "must be a number" };
    case "boolean":
      return typeof value === "boolean" ? OK : { ok: false, type: "bool_type", msg: "must be true or false" };
    case "array[string]":
      return Array.isArray(value) && value.every((v) => typeof v === "string")
        ? OK
        : { ok: false, type: "list_type", msg: "must be a list of strings" };
    default:
      return OK;
  }
}

/** What one rule's check sees: its argument (text and number) and the value with its length. */
type RuleInput = { arg: string; num: number; value: unknown; len: number | undefined };
const fails = (type: string, msg: string, ctx: Record<string, unknown>): Check => ({
  ok: false,
  type,
  msg,
  ctx,
});

/** Each rule of the vocabulary (define.ts) by name; an unknown rule passes. */
const RULES: Record<string, (r: RuleInput) => Check> = {
  min_length: ({ num, len }) =>
    len === undefined || len >= num
      ? OK
      : fails("string_too_short", `must have at least ${num} characters`, { min_length: num }),
  max_length: ({ num, len }) =>
    len === undefined || len <= num
      ? OK
      : fails("string_too_long", `must have at most ${num} characters`, { max_length: num }),
  min_items: ({ num, len }) =>
    len === undefined || len >= num
      ? OK
      : fails("too_short", `must have at least ${num} items`, { min_length: num }),
  max_items: ({ num, len }) =>
    len === undefined || len <= num
      ? OK
      : fails("too_long", `must have at most ${num} items`, { max_length: num }),
  min: ({ num, value }) =>
    typeof value !== "number" || value >= num
      ? OK
      : fails("greater_than_equal", `must be greater than or equal to ${num}`, { ge: num }),
  max: ({ num, value }) =>
    typeof value !== "number" || value <= num
      ? OK
      : fails("less_than_equal", `must be less than or equal to ${num}`, { le: num }),
  pattern: ({ arg, value }) =>
    typeof value !== "string" || matchesPattern(arg, value)
      ? OK
      : fails("string_pattern_mismatch", `must match the pattern ${arg}`, { pattern: arg }),
  one_of: ({ arg, value }) => {
    const allowed = arg.split("|");
    return allowed.includes(String(value))
      ? OK
      : fails("enum", `must be one of: ${allowed.join(", ")}`, { expected: allowed.join(", ") });
  },
};

function ruleCheck(rule: string, value: unknown): Check {
  const sep = rule.indexOf(":");
  const name = sep < 0 ? rule : rule.slice(0, sep);
  const arg = sep < 0 ? "" : rule.slice(sep + 1);
  const len = typeof value === "string" || Array.isArray(value) ? value.length : undefined;
  const check = Object.hasOwn(RULES, name) ? RULES[name] : undefined;
  return check ? check({ arg, num: Number(arg), value, len }) : OK;
}

export interface ParamsCheck {
  params: Record<string, unknown>;
  detail: ValidationDetail[];
}

/** Validates `params` for an agent; `loc` is where params sit in the body (e.g. ["body","params"]). */
export function checkParams(
  agentName: string,
  properties: readonly InputProperty[] | null | undefined,
  params: Record<string, unknown>,
  loc: Loc,
): ParamsCheck {
  const out: Record<string, unknown> = { ...params };
  const detail: ValidationDetail[] = [];
  const props = properties ?? [];
  const fail = (name: string, prop: InputProperty, c: Exclude<Check, { ok: true }>, input: unknown) =>
    detail.push({
      loc: [...loc, name],
      msg: `Parameter '${name}' of agent '${agentName}' (${prop.description}) ${c.msg}`,
      type: c.type,
      input,
      ...(c.ctx ? { ctx: c.ctx } : {}),
    });

  for (const prop of props) {
    const value = params[prop.name];
    if (value === undefined || value === null) {
      if (prop.required) {
        detail.push({
          loc: [...loc, prop.name],
          msg: `Parameter '${prop.name}' of agent '${agentName}' is required: ${prop.description}`,
          type: "missing",
        });
      } else if (prop.default !== null && prop.default !== undefined) {
        out[prop.name] = prop.default;
      }
      continue;
    }
    const typed = typeCheck(prop.type, value);
    if (!typed.ok) {
      fail(prop.name, prop, typed, value);
      continue;
    }
    for (const rule of prop.rules) {
      const checked = ruleCheck(rule, value);
      if (!checked.ok) {
        fail(prop.name, prop, checked, value);
        break;
      }
    }
  }
  if (properties) {
    const known = new Set(props.map((p) => p.name));
    for (const name of Object.keys(params)) {
      if (known.has(name) || ALWAYS_ALLOWED.has(name)) continue;
      detail.push({
        loc: [...loc, name],
        msg: `Agent '${agentName}' has no parameter '${name}'; its parameters are: ${[...known].join(", ") || "none"}`,
        type: "extra_forbidden",
        input: params[name],
      });
    }
  }
  return { params: out, detail };
}
