/**
 * An API schema built on its first use rather than as its module loads. The API schemas are
 * about 100 zod schemas, and building them all took 35-45 ms of every process that loads the
 * client (a spawned server's first call, the HTTP server, each `call`), where a call parses with
 * two or three. zod's own `z.lazy` defers: the schema is built once, when something first parses
 * with it (or reads what derives from it), and every parse after that goes straight to it.
 */
import { channel } from "node:diagnostics_channel";
import { z } from "zod";

/**
 * Each build is published here as `{ schema, lazy }` (only while something subscribes):
 * test/api/lazy-schemas.test.ts checks that loading the client builds none. The channel is the
 * process's, so `lazy` (the wrapper built) tells one module instance's schemas from another's.
 */
const built = channel("web-data-mcp:api-schema-built");

export const lazy = <T extends z.ZodType>(build: () => T): z.ZodLazy<T> => {
  const wrapper: z.ZodLazy<T> = z.lazy(() => {
    const schema = build();
    if (built.hasSubscribers) built.publish({ schema, lazy: wrapper });
    return schema;
  });
  return wrapper;
};

/**
 * `build`, run on the first call only; every later call returns what it built. For a schema other
 * schemas extend, shared by all of them (as the one eager schema was: a lazy schema has no
 * `.extend` or `.omit` to derive them from), and for a tool's input and output (src/tools/tool.ts).
 */
export const buildOnce = <T>(build: () => T): (() => T) => {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
};
