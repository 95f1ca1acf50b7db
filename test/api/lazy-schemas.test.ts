/**
 * The API schemas are built on first use (src/api/lazy-schema.ts): loading the client builds
 * none of them, and a parse builds the schemas it parses with and nothing else. Each build is
 * seen on the channel the helper publishes it on.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const CHANNEL = "web-data-mcp:api-schema-built";
const builds: unknown[] = [];
const onBuild = (message: unknown) => builds.push((message as { schema: unknown }).schema);
subscribe(CHANNEL, onBuild);
afterAll(() => unsubscribe(CHANNEL, onBuild));

/** The exported schemas of both schema modules, by name. */
const schemasOf = (modules: Record<string, unknown>[]) =>
  modules.flatMap((m) => Object.entries(m).filter(([name]) => name.endsWith("Schema"))) as Array<
    [string, { _zod: { def: { type: string } }; parse(v: unknown): unknown }]
  >;

describe("the API schemas", () => {
  it("are not built when the client loads; a parse builds only what it parses with", async () => {
    // Imported here, after the subscription (this file's modules are its own: fresh per file).
    await import("../../src/api/client.js");
    const v1 = await import("../../src/api/schemas.js");
    const v2 = await import("../../src/api/schemas-v2.js");
    expect(builds, "schemas built as the client loaded").toHaveLength(0);

    const status = v1.TaskStatusResponseSchema.parse({ task: { id: "t1", state: "pending", extra: 1 } });
    expect(status.task.id).toBe("t1");
    // The response and the task record inside it.
    expect(builds.length).toBeGreaterThanOrEqual(1);
    expect(builds.length).toBeLessThanOrEqual(2);
    v1.TaskStatusResponseSchema.parse({ task: { id: "t2" } });
    expect(builds.length, "a schema is built once").toBeLessThanOrEqual(2);

    const all = schemasOf([v1, v2]);
    expect(all.length).toBeGreaterThanOrEqual(80);
    const eager = all.filter(([, s]) => !(s instanceof z.ZodLazy)).map(([name]) => name);
    expect(eager, "exported API schemas built as their module loads").toEqual([]);
  });
});
