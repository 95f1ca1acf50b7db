/**
 * The validator createServer hands the SDK's Server: the SDK's Ajv provider arrives with the
 * runtime (off the start-up path); until then asking for a validator says why it cannot.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { DeferredJsonSchemaValidator } from "../../src/server/json-schema-validator.js";

const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as const;

describe("DeferredJsonSchemaValidator", () => {
  it("refuses with a reason before the runtime hands over Ajv", () => {
    expect(() => new DeferredJsonSchemaValidator().getValidator(schema)).toThrow(/not loaded yet/);
  });

  it("validates through the provider it was given", () => {
    const deferred = new DeferredJsonSchemaValidator();
    deferred.use(new AjvJsonSchemaValidator());
    const check = deferred.getValidator(schema);
    expect(check({ n: 1 }).valid).toBe(true);
    const bad = check({ n: "one" });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/number/);
  });
});
