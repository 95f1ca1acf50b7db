import { describe, expect, it } from "vitest";
import { z } from "zod";
import { templateInputSchema, templateIssues } from "../../src/agents/json-schema.js";
import { buildOutputSchema, stripNulls } from "../../src/agents/output-schema.js";

describe("output_schema → zod", () => {
  const out = buildOutputSchema({
    title: { type: "string", description: "Product title" },
    price: { type: "number", minimum: 0 },
    url: { type: "string", format: "uri" },
    offers: { type: "array", items: { type: "object", properties: { seller: { type: "string" } } } },
    meta: { type: "object" },
    odd: { type: "geo" },
  });

  it("keeps fields, descriptions and nesting; annotations never become checks", () => {
    const json = z.toJSONSchema(out.schema, { io: "output" }) as any;
    expect(Object.keys(json.properties)).toEqual(["title", "price", "url", "offers", "meta", "odd"]);
    expect(json.properties.title).toMatchObject({ type: "string", description: "Product title" });
    expect(json.properties.price.type).toBe("number");
    expect(JSON.stringify(json.properties.url)).toContain('"x-format":"uri"');
    expect(JSON.stringify(json.properties.url)).not.toContain('"format"');
    expect(JSON.stringify(json.properties.offers)).toContain("seller");
    expect(out.notes).toEqual(['output "odd": unknown type "geo", any value accepted']);
  });

  it("accepts real-world output once nulls are stripped: missing and extra fields, values past minimum", () => {
    const data = { title: null, price: -1, extra: 1, offers: [{ seller: "a", x: 1, y: null }, null] };
    expect(stripNulls(data)).toEqual({ price: -1, extra: 1, offers: [{ seller: "a", x: 1 }] });
    expect(out.schema.safeParse(stripNulls(data)).success).toBe(true);
    expect(out.schema.safeParse({ price: "12" }).success).toBe(false);
  });

  it("is permissive when the agent has no output_schema", () => {
    const none = buildOutputSchema(null);
    expect(none.exact).toBe(false);
    expect(none.schema.safeParse({ a: 1 }).success).toBe(true);
  });
});

describe("template input_schema (JSON Schema) → zod", () => {
  const input = {
    type: "object",
    properties: {
      url: {
        type: "string",
        description: "Product page URL",
        examples: ["https://shop.example/p/1"],
        minLength: 10,
      },
      max_reviews: { type: "integer", minimum: 1, maximum: 50 },
    },
    required: ["url"],
  };

  it("validates with the template's own descriptions", () => {
    const t = templateInputSchema(input);
    expect(t.exact).toBe(true);
    expect(t.schema.safeParse({ url: "https://shop.example/p/1" }).success).toBe(true);
    const bad = t.schema.safeParse({ url: "x", max_reviews: 0 });
    expect(bad.success).toBe(false);
    const lines = templateIssues(bad.error!, input);
    expect(lines[0]).toMatch(
      /^params\.url: .* — Product page URL\. Example: "https:\/\/shop\.example\/p\/1"$/,
    );
    expect(lines[1]).toMatch(/^params\.max_reviews: /);
  });

  it("degrades to a permissive object with a note on what zod cannot convert", () => {
    const t = templateInputSchema({ type: "object", properties: { a: { $ref: "#/nowhere" } } });
    expect(t.exact).toBe(false);
    expect(t.notes[0]).toMatch(/not checked locally/);
    expect(t.schema.safeParse({ a: 1 }).success).toBe(true);
  });
});
