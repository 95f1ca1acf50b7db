/**
 * Bad arguments in words a model acts on: each problem names the argument, says what it must be
 * (the same words as its listed description: "an integer (1–100)", "one of: desktop, mobile")
 * and what was given; an unknown name gets the nearest real one ("`num_result` is not an
 * argument of serp_search; did you mean `num_results`?").
 */
import type { z } from "zod";
import { nearest } from "../suggest.js";
import { allowedText, isOpenMap } from "./schema-text.js";

type Json = Record<string, unknown>;

export interface ArgumentContext {
  /** The tool, for "is not an argument of TOOL". */
  tool?: string;
  /** The checked object's JSON Schema (zod's, input side): where the allowed values are read. */
  json?: Json;
  /** The arguments as given (to show what was wrong). */
  args?: unknown;
  /** Leads each path, e.g. `inputs[2]` for one item checked alone. */
  prefix?: string;
}

type Segment = PropertyKey;

function pathText(prefix: string | undefined, path: readonly Segment[]): string {
  let out = prefix ?? "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON Schema node a path leads to (properties by name, items by index; anyOf: the first that fits). */
export function nodeAt(json: Json | undefined, path: readonly Segment[]): Json | undefined {
  let node = json;
  for (const seg of path) {
    if (!node) return undefined;
    if (Array.isArray(node.anyOf)) node = (node.anyOf as Json[]).find((b) => b.type !== "null") ?? node;
    if (typeof seg === "number") node = isObject(node.items) ? node.items : undefined;
    else node = isObject(node.properties) ? (node.properties[String(seg)] as Json | undefined) : undefined;
  }
  return node;
}

function valueAt(args: unknown, path: readonly Segment[]): unknown {
  let value = args;
  for (const seg of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[seg];
  }
  return value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** An object of any names is given as JSON text too (that is how it is listed). */
function allowed(node: Json | undefined): string {
  if (!node) return "";
  if (isOpenMap(node)) return 'a JSON object (as text, e.g. {"name": "value"}, or an object)';
  return allowedText(node);
}

function unknownNames(issue: z.core.$ZodIssue & { keys: string[] }, ctx: ArgumentContext): string[] {
  const parent = nodeAt(ctx.json, issue.path);
  const names = isObject(parent?.properties) ? Object.keys(parent.properties) : [];
  const owner =
    issue.path.length > 0 || ctx.prefix
      ? `a member of \`${pathText(ctx.prefix, issue.path)}\``
      : `an argument of ${ctx.tool ?? "this tool"}`;
  return issue.keys.map((key) => {
    const near = nearest(key, names, Math.max(2, Math.floor(key.length / 3)));
    const hint = near
      ? `did you mean \`${near}\`?`
      : names.length > 0
        ? `the ${issue.path.length > 0 ? "members" : "arguments"} are: ${names.join(", ")}`
        : "none are taken";
    return `\`${pathText(ctx.prefix, [...issue.path, key])}\` is not ${owner}; ${hint}`;
  });
}

/** zod's own wording (replaced by ours); any other message was written for this field: kept. */
const ZOD_DEFAULT =
  /^(Too (big|small)|Invalid (input|option|string|format|URL|element|key|union|value|type)|Unrecognized key)/;

/** Issues zod raises for a value that is not there at all (a missing argument or member). */
const ABSENT = new Set(["invalid_type", "invalid_value", "invalid_union"]);

/**
 * A missing argument: "`search_engine` is required (one of: …)" for a choice, else "`url` is
 * required: a string — The page's absolute http(s) URL" (what it must be, and what it is for).
 */
function required(name: string, node: Json | undefined, must: string): string {
  if (Array.isArray(node?.enum)) return `${name} is required (${must})`;
  const about = typeof node?.description === "string" ? ` — ${node.description}` : "";
  return `${name} is required${must ? `: ${must}` : ""}${about}`;
}

/** One line per problem, naming the argument. */
export function argumentProblems(error: z.ZodError, ctx: ArgumentContext = {}): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") return unknownNames(issue, ctx);
    const name = `\`${pathText(ctx.prefix, issue.path) || "(arguments)"}\``;
    const node = nodeAt(ctx.json, issue.path);
    const must = allowed(node);
    const value = valueAt(ctx.args, issue.path);
    const last = issue.path.at(-1);
    // Missing, whatever the field's own error wording says ("required", "must be one of …").
    if (value === undefined && issue.path.length > 0 && ABSENT.has(issue.code))
      return [required(name, node, must)];
    if (!ZOD_DEFAULT.test(issue.message) && issue.code !== "invalid_format")
      return [
        typeof last === "string" && issue.message.includes(`"${last}"`)
          ? issue.message
          : `${name}: ${issue.message}`,
      ];
    switch (issue.code) {
      case "invalid_type":
        if (value === null) return [`${name} is required and cannot be null${must ? `: ${must}` : ""}`];
        return [`${name} must be ${must || `of type ${issue.expected}`}, not ${shown(value)}`];
      case "too_big":
      case "too_small":
      case "invalid_value":
      case "not_multiple_of":
      case "invalid_union":
        return [must ? `${name} must be ${must}, not ${shown(value)}` : `${name}: ${issue.message}`];
      default:
        return [`${name}: ${issue.message}${value !== undefined ? ` (got ${shown(value)})` : ""}`];
    }
  });
}
