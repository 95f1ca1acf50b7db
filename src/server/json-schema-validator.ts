/**
 * The JSON Schema validator the SDK's `Server` holds (it validates an elicitation's answer against
 * the requested schema), filled in later: the SDK's own Ajv provider is loaded with the runtime
 * (./runtime.ts), not on the start-up path, where Ajv would be a third of the code to compile. A
 * tool runs only once the runtime is loaded, so anything that asks for a validator finds it there.
 */
import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";

export class DeferredJsonSchemaValidator implements jsonSchemaValidator {
  #inner: jsonSchemaValidator | undefined;

  /** Hands over the real provider (the runtime does, once loaded). */
  use(inner: jsonSchemaValidator): void {
    this.#inner = inner;
  }

  getValidator<T>(schema: JsonSchemaType) {
    if (!this.#inner)
      throw new Error("JSON Schema validation is not loaded yet (the server's tools are loading)");
    return this.#inner.getValidator<T>(schema);
  }
}
