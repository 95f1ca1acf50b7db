/**
 * One JSON Schema validator for every SDK client a test file makes (and for a test that checks a
 * result against a tool's output schema itself): the SDK's own Ajv provider,
 * with each tool output schema compiled once per file instead of once per client and `tools/list`
 * (the SDK client compiles every listed tool's output schema on each listing: about 2 s of the
 * suite's CPU when each client had its own). It validates exactly as the SDK's default does.
 */
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const ajv = new AjvJsonSchemaValidator();
const compiled = new Map<string, JsonSchemaValidator<unknown>>();

export const sharedOutputValidators: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType) {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.getValidator<T>(schema);
      compiled.set(key, validate);
    }
    return validate as JsonSchemaValidator<T>;
  },
};
