/**
 * The JSON Schema validator the SDK's `Server` holds. The SDK asks it for one thing only: checking
 * a client's answer to an elicitation (`Server.elicitInput`) against the requested schema. This
 * server elicits nothing, so it never loads a validator: the SDK's default (Ajv with its formats)
 * would cost every server some 40-100 ms of CPU to build and never be used. If a feature ever
 * elicits, asking for a validator says so instead of validating nothing.
 */
import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";

export class NoElicitationValidator implements jsonSchemaValidator {
  getValidator(_schema: JsonSchemaType): never {
    throw new Error(
      "this server sends no elicitation requests, so it holds no JSON Schema validator: give the SDK's Server a real one (its Ajv provider) before eliciting",
    );
  }
}
