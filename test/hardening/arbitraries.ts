/**
 * fast-check arbitraries derived from a tool's JSON input schema: `validInput` gives arguments
 * the schema accepts (an optional member sometimes `null`, which means not given),
 * `invalidInput` gives arguments it must reject (unknown members among them), each tagged with why.
 */
import fc from "fast-check";
import { unicodeString, webUrl } from "../helpers/unicode-arbitraries.js";

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
}

/** Per-property overrides for valid values (e.g. URLs on the demo site, known agent names). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export interface ValidOptions {
  hints?: Hints;
  /** Largest array a valid input has (the schema's maxItems still bounds it). */
  maxArray?: number;
  /**
   * Whether an unbounded string may be huge (5,000–20,000 characters); default true. The valid
   * inputs keep them (an unbounded field must take one); an invalid input's valid members and the
   * item repeated past `maxItems` go without: what those break is another rule, and a huge value
   * there only made the file pipe 50 MB more to the server (a 20,000-character item × 1,001).
   */
  huge?: boolean;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** Strings: full unicode when the schema does not bound the length (lengths count UTF-16 units). */
function validString(s: JsonSchema, huge = true): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...(s.enum as string[]));
  if (s.format === "uri") return webUrl({ withQueryParameters: true });
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
  const minLength = s.minLength ?? 0;
  // Tools trim their strings before checking a minimum length.
  const filled = (v: string) => minLength === 0 || v.trim().length >= minLength;
  if (s.maxLength !== undefined) {
    return fc.string({ unit: "binary-ascii", minLength, maxLength: s.maxLength }).filter(filled);
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: 40 }) },
      { weight: 1, arbitrary: unicodeString({ minLength, maxLength: 40 }) },
      // Huge but valid: an unbounded field must take it without trouble.
      ...(huge ? [{ weight: 1, arbitrary: fc.constantFrom("ü".repeat(5_000), "x".repeat(20_000)) }] : []),
    )
    .filter(filled);
}

function validNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1e6);
  const max = Math.min(
    s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1e6),
    MAX_SAFE,
  );
  if (integer) {
    // Mostly small values near the minimum (fast calls), sometimes anywhere, sometimes the bounds.
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 20) }) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
    );
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

export function validValue(s: JsonSchema, options: ValidOptions = {}): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (typeOf(s)) {
    case "string":
      return validString(s, options.huge);
    case "integer":
      return validNumber(s, true);
    case "number":
      return validNumber(s, false);
    case "boolean":
      return fc.boolean();
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 10, options.maxArray ?? 5));
      return fc.array(validValue(s.items ?? {}, options), { minLength, maxLength });
    }
    case "object":
      return validObject(s, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validObject(s: JsonSchema, options: ValidOptions): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  if (Object.keys(props).length === 0) {
    // A free-form object (e.g. an agent's params).
    return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, p] of Object.entries(props))
    model[name] = options.hints?.[name] ?? validValue(p, options);
  const required = new Set(s.required ?? []);
  // Strict-mode clients send every member, the optional ones as null.
  for (const name of Object.keys(model))
    if (!required.has(name) && !options.hints?.[name])
      model[name] = fc.oneof(
        { weight: 5, arbitrary: model[name] },
        { weight: 1, arbitrary: fc.constant(null) },
      );
  return fc.record(model, { requiredKeys: s.required ?? [] });
}

/** Members no tool has: refused by name (tool arguments are strict). */
const extraMembers = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 10 }).map((k) => `x_${k}`),
  fc.jsonValue({ maxDepth: 2 }),
  { minKeys: 1, maxKeys: 3 },
);

export function validInput(
  schema: JsonSchema,
  options: ValidOptions = {},
): fc.Arbitrary<Record<string, unknown>> {
  return validObject(schema, options);
}

export interface InvalidCase {
  why: string;
  args: unknown;
}

/** A value of any other type; never null for an optional member (null means not given). */
const notA = (type: string | undefined, optional = false): fc.Arbitrary<unknown> => {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    // A map also takes its JSON text: strings that could be one are left out.
    ["string", fc.string({ unit: "grapheme", maxLength: 20 }).filter((v) => !v.trimStart().startsWith("{"))],
    ["number", fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ["boolean", fc.boolean()],
    ["null", fc.constant(null)],
    ["array", fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    ["object", fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })],
  ];
  const excluded = [type === "integer" ? "number" : type, ...(optional ? ["null"] : [])];
  return fc.oneof(...all.filter(([t]) => !excluded.includes(t)).map(([, a]) => a));
};

/** Ways one property's value can break its schema; empty when the schema takes anything. */
function invalidValues(s: JsonSchema, optional = false): Array<[string, fc.Arbitrary<unknown>]> {
  const type = typeOf(s);
  if (type === undefined && !s.enum) return [];
  const out: Array<[string, fc.Arbitrary<unknown>]> = [["wrong type", notA(type, optional)]];
  if (s.enum) {
    out.push([
      "unknown enum value",
      fc
        .oneof(fc.string({ unit: "grapheme", maxLength: 20 }), fc.constantFrom("", "DESKTOP", "markdown "))
        .filter((v) => !s.enum!.includes(v)),
    ]);
  }
  if (type === "integer" || type === "number") {
    if (s.minimum !== undefined)
      out.push(["below the minimum", fc.integer({ min: -1e9, max: s.minimum - 1 }).map((n) => n)]);
    if (s.maximum !== undefined && s.maximum < MAX_SAFE)
      out.push(["above the maximum", fc.oneof(fc.constant(s.maximum + 1), fc.constant(1e300))]);
    if (type === "integer")
      out.push(["a fraction", fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((d) => 1 + d)]);
  }
  if (type === "string" && !s.enum) {
    if ((s.minLength ?? 0) > 0) out.push(["too short", fc.constant("")]);
    if (s.maxLength !== undefined)
      out.push([
        "too long",
        fc.oneof(
          fc
            .string({ unit: "binary-ascii", minLength: s.maxLength + 1, maxLength: s.maxLength + 5 })
            .filter((v) => v.trim().length > s.maxLength!),
          fc.constant("é".repeat(100_000)),
        ),
      ]);
    if (s.pattern) {
      // Not matching even case-insensitively (a zod regex flag does not reach the JSON Schema).
      const re = new RegExp(s.pattern, "i");
      out.push([
        "not matching its pattern",
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).filter((v) => !re.test(v)),
      ]);
    }
    if (s.format === "uri")
      out.push([
        "not an absolute http(s) URL",
        fc.constantFrom(
          "",
          "not a url",
          "/relative/path",
          "ftp://example.com/",
          "javascript:alert(1)",
          "http://",
        ),
      ]);
  }
  if (type === "array") {
    if (s.maxItems !== undefined && s.items)
      out.push([
        `${s.maxItems + 1} items`,
        // One valid item repeated: cheap to build even at 1,001 items.
        validValue(s.items, { huge: false }).map((item) =>
          Array.from({ length: s.maxItems! + 1 }, () => item),
        ),
      ]);
    if ((s.minItems ?? 0) > 0) out.push(["no items", fc.constant([])]);
    const bad = s.items ? invalidValues(s.items) : [];
    if (bad.length) out.push(["a bad item", fc.oneof(...bad.map(([, a]) => a)).map((item) => [item])]);
  }
  if (type === "object" && s.properties) {
    const required = new Set(s.required ?? []);
    for (const [name, p] of Object.entries(s.properties)) {
      for (const [why, arb] of invalidValues(p, !required.has(name))) {
        out.push([
          `${name} ${why}`,
          fc.tuple(validObject(s, { huge: false }), arb).map(([o, v]) => ({ ...o, [name]: v })),
        ]);
      }
    }
  }
  return out;
}

/**
 * Arguments the schema must reject, with the reason. Each case breaks exactly one rule of an
 * otherwise valid input (a missing required member, or one member's value), sometimes with extra
 * unknown members too, or replaces the whole arguments object.
 */
export function invalidInput(schema: JsonSchema, options: ValidOptions = {}): fc.Arbitrary<InvalidCase> {
  // The members left valid are never huge (see `ValidOptions.huge`): the broken one is what counts.
  const valid = { ...options, huge: false };
  const props = schema.properties ?? {};
  const cases: fc.Arbitrary<InvalidCase>[] = [];
  for (const name of schema.required ?? []) {
    cases.push(
      validObject(schema, valid).map((o) => {
        const { [name]: _dropped, ...rest } = o;
        return { why: `missing required ${name}`, args: rest };
      }),
    );
  }
  const required = new Set(schema.required ?? []);
  for (const [name, p] of Object.entries(props)) {
    for (const [why, arb] of invalidValues(p, !required.has(name))) {
      cases.push(
        fc
          .tuple(validObject(schema, valid), arb, fc.option(extraMembers, { freq: 3 }))
          .map(([o, v, extra]) => ({ why: `${name}: ${why}`, args: { ...extra, ...o, [name]: v } })),
      );
    }
  }
  cases.push(
    fc
      .tuple(validObject(schema, valid), extraMembers)
      .map(([o, extra]) => ({ why: "an unknown member", args: { ...extra, ...o } })),
  );
  return fc.oneof(...cases);
}
