/**
 * The example params the server builds for agents and templates, over generated catalogs: every
 * example passes the server's own check (the compiled params schema, a template's converted
 * `input_schema`) and the sandbox's (the API's stand-in), a required param is never left out
 * silently (it is present, or named in `missing`), a satisfiable schema always gets a complete
 * example, and the same schema always gives the same example.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkParams, compileAgent } from "../../src/agents/compile.js";
import { agentExampleParams, templateExampleParams } from "../../src/agents/example-params.js";
import { templateInputSchema } from "../../src/agents/json-schema.js";
import type { AgentDetail, InputProperty, TemplateVersion } from "../../src/api/schemas.js";
import { checkParams as sandboxCheck } from "../../src/sandbox/agents/params.js";
import { checkJsonSchema } from "../../src/sandbox/templates/json-schema.js";

const NAMES = [
  "url",
  "query",
  "country",
  "language",
  "email",
  "page",
  "limit",
  "product_id",
  "sku",
  "check_in",
  "end_date",
  "username",
  "tags",
  "enabled",
  "place_id",
  "amount",
  "zip",
  "company_domain",
  "city",
];
const PATTERNS = [
  "^https?://",
  "^[A-Z0-9]{10}$",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "^[A-Za-z]{2}$",
  "^[A-Za-z0-9_.]+$",
  "^ACME-[A-Z0-9-]+$",
  "^\\+?[0-9 ]{7,15}$",
  "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$",
  "(red|blue)-\\d+",
  "^\\S+$",
  "^[A-Z]{3}$",
  "^[a-z]+(-[a-z]+)*$",
  "^(?:[a-z0-9-]+\\.)+[a-z]{2,}$",
];
const ENUMS = [["newest", "oldest"], ["desktop", "mobile", "tablet"], ["a"]];

/** One rule set a value can meet: a pattern, an enum, a format, or lengths; ranges for numbers. */
const stringRules: fc.Arbitrary<string[]> = fc.oneof(
  fc.constantFrom(...PATTERNS).map((p) => [`pattern:${p}`]),
  fc.constantFrom(...ENUMS).map((e) => [`one_of:${e.join("|")}`]),
  fc.constantFrom<string[]>(["url"], ["email"], ["format:uri"], ["not_empty"]),
  fc
    .tuple(fc.nat(12), fc.nat(40))
    .map(([min, extra]) => [`min_length:${min}`, `max_length:${Math.max(min, 1) + extra}`]),
  fc.constant([] as string[]),
);
const numberRules: fc.Arbitrary<string[]> = fc.oneof(
  fc
    .tuple(fc.integer({ min: -50, max: 50 }), fc.nat(100))
    .map(([min, extra]) => [`min:${min}`, `max:${min + extra}`]),
  fc.integer({ min: -5, max: 5 }).map((min) => [`min:${min}`]),
  fc.integer({ min: -5, max: 5 }).map((max) => [`max:${max}`]),
  fc.constantFrom<string[]>(["one_of:1|2|3"], []),
);
const arrayRules: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(fc.nat(3), fc.nat(3)).map(([min, extra]) => [`min_items:${min}`, `max_items:${min + extra}`]),
  fc.constantFrom<string[]>(["pattern:^[a-z]+$"], []),
);

/** A satisfiable input property (its rules can be met together). */
const propertyArb: fc.Arbitrary<InputProperty> = fc
  .oneof(
    fc.tuple(fc.constantFrom("string", "str", "text", "url", "email", "date"), stringRules),
    fc.tuple(fc.constantFrom("integer", "int", "number", "float"), numberRules),
    fc.tuple(fc.constantFrom("array[string]", "list[int]", "string[]", "array"), arrayRules),
    fc.tuple(fc.constantFrom("boolean", "object", "json", "something_else"), fc.constant([] as string[])),
  )
  .chain(([type, rules]) =>
    fc.record({
      name: fc.constant(""),
      type: fc.constant(type),
      rules: fc.constant(rules),
      required: fc.boolean(),
      description: fc.constant("a param"),
      // Examples and defaults from a catalog, right or wrong: a wrong one is never shown.
      examples: fc.option(fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxLength: 2 }), {
        nil: null,
      }),
      default: fc.option(fc.oneof(fc.string(), fc.integer()), { nil: null }),
      is_localization_param: fc.constant(false),
      is_pagination_param: fc.constant(false),
    }),
  );

const agentArb: fc.Arbitrary<AgentDetail> = fc
  .record({
    names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 6 }),
    domain: fc.constantFrom(null, "shop.example.com", "https://www.news.example.org/", "not a host"),
  })
  .chain(({ names, domain }) =>
    fc.tuple(...names.map(() => propertyArb)).map(
      (props): AgentDetail => ({
        name: "generated_agent",
        display_name: "Generated agent",
        is_public: true,
        domain,
        input_properties: props.map((p, i) => ({ ...p, name: names[i] })),
      }),
    ),
  );

describe("agent example params", () => {
  it("pass the server's and the sandbox's checks, name every required param, and are deterministic", () => {
    fc.assert(
      fc.property(agentArb, (detail) => {
        const compiled = compileAgent(detail);
        const example = agentExampleParams(detail, compiled);
        expect(example.missing).toEqual([]);
        const required = detail.input_properties!.filter((p) => p.required).map((p) => p.name);
        for (const name of required) expect(example.params).toHaveProperty(name);
        expect(checkParams(compiled, example.params).problems).toEqual([]);
        expect(sandboxCheck(detail.name, detail.input_properties, example.params, []).detail).toEqual([]);
        expect(agentExampleParams(detail, compileAgent(detail))).toEqual(example);
      }),
      { numRuns: 200 },
    );
  });

  it("name a required param no value can pass instead of showing a call without it", () => {
    const detail: AgentDetail = {
      name: "impossible",
      display_name: "Impossible",
      is_public: true,
      input_properties: [
        {
          name: "code",
          type: "string",
          description: "a code",
          required: true,
          rules: ["pattern:^[A-Z]{3}$", "min_length:5"],
          examples: null,
          default: null,
          is_localization_param: false,
          is_pagination_param: false,
        },
      ],
    };
    expect(agentExampleParams(detail, compileAgent(detail))).toEqual({ params: {}, missing: ["code"] });
  });
});

type Schema = Record<string, unknown>;

const leafArb: fc.Arbitrary<Schema> = fc.oneof(
  fc.constantFrom<Schema>(
    { type: "string", format: "uri" },
    { type: "string", format: "email" },
    { type: "string", format: "date" },
    { type: "string", format: "date-time" },
    { type: "string", format: "uuid" },
    { type: "string", enum: ["desktop", "mobile"] },
    { type: "boolean" },
    { type: ["string", "null"] },
    { type: "integer", minimum: 1, maximum: 20 },
    { type: "number", exclusiveMinimum: 0 },
    { type: "integer", multipleOf: 5, minimum: 7 },
    { type: "array", items: { type: "string", format: "uri" }, minItems: 2 },
    { type: "array", items: { type: "integer" }, maxItems: 3 },
  ),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: "string", pattern })),
  fc.tuple(fc.nat(10), fc.nat(20)).map(([min, extra]) => ({
    type: "string",
    minLength: min,
    maxLength: Math.max(min, 1) + extra,
  })),
);
const objectArb = (leaf: fc.Arbitrary<Schema>) =>
  fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 }).chain((names) =>
    fc.tuple(fc.tuple(...names.map(() => leaf)), fc.subarray(names)).map(([nodes, required]) => ({
      type: "object",
      properties: Object.fromEntries(names.map((n, i) => [n, nodes[i]])),
      required,
      additionalProperties: false,
    })),
  );
const templateSchemaArb = objectArb(
  fc.oneof({ weight: 4, arbitrary: leafArb }, { weight: 1, arbitrary: objectArb(leafArb) }),
);

describe("template example params", () => {
  it("pass the server's and the sandbox's JSON Schema checks and are deterministic", () => {
    fc.assert(
      fc.property(templateSchemaArb, fc.constantFrom(undefined, "jobs.example.com"), (schema, domain) => {
        const version = {
          name: "t",
          version_number: 1,
          input_schema: schema,
          output_schema: {},
          metadata: { domain },
        } as TemplateVersion;
        const example = templateExampleParams(version);
        expect(example.missing).toEqual([]);
        expect(templateInputSchema(schema).schema.safeParse(example.params).error).toBeUndefined();
        expect(checkJsonSchema(schema, example.params, [])).toEqual([]);
        expect(templateExampleParams(version)).toEqual(example);
      }),
      { numRuns: 200 },
    );
  });

  it("take the version's own sample when its schema accepts it, and build one when not", () => {
    const schema = {
      type: "object",
      properties: { url: { type: "string", format: "uri" } },
      required: ["url"],
    };
    const version = (input: unknown) =>
      ({
        name: "t",
        version_number: 1,
        input_schema: schema,
        output_schema: {},
        metadata: {},
        samples: [{ input }],
      }) as TemplateVersion;
    expect(templateExampleParams(version({ url: "https://a.example/p" })).params).toEqual({
      url: "https://a.example/p",
    });
    expect(templateExampleParams(version({ link: "x" })).params).toEqual({ url: "https://example.com/" });
  });
});
