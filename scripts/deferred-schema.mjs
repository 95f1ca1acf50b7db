// What the start-path plugin (scripts/start-path-plugin.mjs) puts in the SDK's types.js in the
// bundle: each message schema is built on its first use instead of as the module loads.
import { channel } from "node:diagnostics_channel";

/**
 * Each schema's first build is published here as `{ name }` (only while something subscribes):
 * test/install/start-path.test.ts counts what the stdio handshake builds.
 */
const built = channel("web-data-mcp:sdk-schema-built");

/** `build`, run on the first call only: every later call returns the same schema. */
export function builder(name, build) {
  let schema;
  return () => {
    if (schema === undefined) {
      schema = build();
      if (built.hasSubscribers) built.publish({ name });
    }
    return schema;
  };
}

/**
 * A stand-in for the schema `schema()` builds, for the modules that import it: every operation on
 * it (a property read such as `_zod`, `.shape` or `.parse`, `in`, a prototype check) is done on the
 * schema, built then if it was not yet. Within types.js the schemas are built from one another
 * directly (`schema()`), never through a stand-in.
 */
export function deferred(schema) {
  return new Proxy(
    {},
    {
      get: (_, key) => Reflect.get(schema(), key),
      set: (_, key, value) => Reflect.set(schema(), key, value),
      has: (_, key) => Reflect.has(schema(), key),
      deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
      ownKeys: () => Reflect.ownKeys(schema()),
      getOwnPropertyDescriptor(_, key) {
        const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
        // A proxy may not report a property its (empty) target lacks as non-configurable.
        if (descriptor) descriptor.configurable = true;
        return descriptor;
      },
      defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
      getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    },
  );
}
