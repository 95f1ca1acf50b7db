import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkParams, compileAgent, describeInputs } from "../../src/agents/compile.js";
import { agentExampleParams } from "../../src/agents/example-params.js";
import { buildParamsSchema } from "../../src/agents/input-schema.js";
import { detail, prop } from "./fixtures.js";

const search = detail("shop_search", [
  prop({
    name: "query",
    type: "string",
    required: true,
    rules: ["min_length:3", "max_length:50"],
    description: "Search keyword typed into the shop's search box",
    examples: ["laptop", "usb cable"],
  }),
  prop({ name: "page", type: "integer", rules: ["min:1", "max:100"], default: 1, is_pagination_param: true }),
  prop({
    name: "country",
    type: "string",
    rules: ["one_of:us|de|fr"],
    is_localization_param: true,
    examples: ["us"],
  }),
  prop({ name: "url", type: "string", rules: ["pattern:^https?://"], examples: ["https://shop.example/x"] }),
  prop({ name: "in_stock", type: "boolean", examples: [true] }),
  prop({ name: "tags", type: "array", rules: ["max_length:2"], examples: [["a"]] }),
]);

describe("input_properties → zod (params)", () => {
  const agent = compileAgent(search);

  it("builds an exact JSON Schema with descriptions, examples, defaults and marks", () => {
    const json = z.toJSONSchema(agent.params.schema, { io: "input" }) as any;
    expect(Object.keys(json.properties)).toEqual(["query", "page", "country", "url", "in_stock", "tags"]);
    expect(json.required).toEqual(["query"]);
    expect(json.additionalProperties).toBe(false);
    expect(json.properties.query).toMatchObject({
      type: "string",
      minLength: 3,
      maxLength: 50,
      description: "Search keyword typed into the shop's search box",
      examples: ["laptop", "usb cable"],
    });
    expect(json.properties.page).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 1 });
    expect(json.properties.page["x-pagination-param"]).toBe(true);
    expect(json.properties.country).toMatchObject({ enum: ["us", "de", "fr"], "x-localization-param": true });
    expect(new RegExp(json.properties.url.pattern).source).toBe(/^https?:\/\//.source);
    expect(json.properties.tags).toMatchObject({ type: "array", maxItems: 2 });
    expect(agent.params.paginationParam).toBe("page");
    expect(agent.params.localizationParams).toEqual(["country"]);
    expect(agent.notes).toEqual([]);
  });

  it("round-trips the agent's own examples", () => {
    const ok = checkParams(agent, agentExampleParams(search, agent).params);
    expect(ok.problems).toEqual([]);
    expect(ok.ok).toBe(true);
  });

  it("rejects a missing required param with the agent's description and examples", () => {
    const r = checkParams(agent, {});
    expect(r.ok).toBe(false);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toContain('param "query" is required but missing');
    expect(r.problems[0]).toContain("Search keyword typed into the shop's search box");
    expect(r.problems[0]).toContain('"laptop"');
  });

  it("rejects a too-short string and a wrong type in the agent's words", () => {
    const r = checkParams(agent, { query: "tv", page: "2" });
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatch(/"query" must be at least 3 characters long\. .*Search keyword/);
    expect(r.problems[1]).toMatch(/"page" must be an integer, got the string "2"/);
  });

  it("rejects values outside one_of, pattern and min/max", () => {
    const r = checkParams(agent, { query: "laptop", page: 0, country: "xx", url: "ftp://x" });
    expect(r.problems.join("\n")).toMatch(/"page" must be >= 1/);
    expect(r.problems.join("\n")).toMatch(/"country" must be one of "us", "de", "fr"/);
    expect(r.problems.join("\n")).toMatch(/"url" must match the pattern/);
  });

  it("drops optional params given as null (the API reads them as absent); a null required one is missing", () => {
    const ok = checkParams(agent, { query: "laptop", page: null, country: null });
    expect(ok.ok).toBe(true);
    expect(ok.params).toEqual({ query: "laptop" });
    const bad = checkParams(agent, { query: null });
    expect(bad.problems[0]).toContain('param "query" must be a string, got null');
  });

  it("names unknown params and lists the ones the agent takes; callback_url is always allowed", () => {
    const r = checkParams(agent, { query: "laptop", qeury: "x" });
    expect(r.problems).toEqual([
      'unknown param "qeury"; this agent takes: query, page, country, url, in_stock, tags',
    ]);
    expect(checkParams(agent, { query: "laptop", callback_url: "https://hook.example/x" }).ok).toBe(true);
  });

  it("describes the inputs one param a line", () => {
    const text = describeInputs(agent);
    expect(text.split("\n")).toHaveLength(6);
    expect(text).toContain('- "query" (string, required): Search keyword');
    expect(text).toContain("[pagination]");
  });
});

describe("degradation", () => {
  it("turns unknown types and rules into a permissive field with a note, never a crash", () => {
    const s = buildParamsSchema([
      prop({ name: "blob", type: "geo-shape", required: true, rules: ["sparkle:5"] }),
      prop({ name: "n", type: "integer", rules: ["min_length:3"] }),
    ]);
    expect(s.notes).toEqual([
      'param "blob": unknown type "geo-shape", any value accepted',
      'param "blob": rule "sparkle:5" not understood, not checked',
      'param "n": length/pattern on a number ignored',
    ]);
    expect(s.schema.safeParse({ blob: { any: ["thing"] }, n: 1 }).success).toBe(true);
    const missing = s.schema.safeParse({});
    expect(missing.error?.issues[0].message).toContain('param "blob" is required but missing');
    expect(() => z.toJSONSchema(s.schema, { io: "input" })).not.toThrow();
  });

  it("accepts anything when the agent publishes no input_properties", () => {
    const s = buildParamsSchema(null);
    expect(s.exact).toBe(false);
    expect(s.schema.safeParse({ whatever: 1 }).success).toBe(true);
  });

  it("reads typed arrays and numeric one_of", () => {
    const s = buildParamsSchema([
      prop({ name: "ids", type: "array[integer]" }),
      prop({ name: "size", type: "integer", rules: ["one_of:10|20|50"] }),
    ]);
    expect(s.schema.safeParse({ ids: [1, 2], size: 20 }).success).toBe(true);
    expect(s.schema.safeParse({ ids: ["1"] }).success).toBe(false);
    expect(s.schema.safeParse({ size: 15 }).error?.issues[0].message).toContain("must be one of 10, 20, 50");
  });
});
