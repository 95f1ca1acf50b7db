/**
 * The API schemas are built on first use (src/api/lazy-schema.ts): loading the client builds
 * none of them, and a parse builds the schemas it parses with and nothing else. Each build is
 * seen on the channel the helper publishes it on. The channel is the process's and a worker runs
 * many files: a file before this one may have left our modules at work (an in-process server
 * polling), building schemas of its own instance on the same channel, so only the builds of this
 * file's exported schemas count (the few unexported ones are only built from inside those).
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const CHANNEL = "web-data-mcp:api-schema-built";
const published: Array<{ schema: unknown; lazy: unknown }> = [];
const onBuild = (message: unknown) => published.push(message as (typeof published)[number]);
subscribe(CHANNEL, onBuild);
afterAll(() => unsubscribe(CHANNEL, onBuild));

/** The exported schemas of both schema modules, by name. */
const schemasOf = (modules: Record<string, unknown>[]) =>
  modules.flatMap((m) => Object.entries(m).filter(([name]) => name.endsWith("Schema"))) as Array<
    [string, { _zod: { def: { type: string } }; parse(v: unknown): unknown }]
  >;

describe("the API schemas", () => {
  it("are not built when the client loads; a parse builds only what it parses with", async () => {
    // Imported here, after the subscription, as an instance of this file's own: an import a file
    // before left in flight settles first (resetting our modules while it runs can hand this
    // file its instance, with schemas built already).
    await vi.dynamicImportSettled();
    vi.resetModules();
    await import("../../src/api/client.js");
    const v1 = await import("../../src/api/schemas.js");
    const v2 = await import("../../src/api/schemas-v2.js");
    const all = schemasOf([v1, v2]);
    const ours = new Set<unknown>(all.map(([, s]) => s));
    const builds = () => published.filter((b) => ours.has(b.lazy));
    expect(builds(), "schemas built as the client loaded").toHaveLength(0);

    const status = v1.TaskStatusResponseSchema.parse({ task: { id: "t1", state: "pending", extra: 1 } });
    expect(status.task.id).toBe("t1");
    // The response and the task record inside it.
    expect(builds().length).toBeGreaterThanOrEqual(1);
    expect(builds().length).toBeLessThanOrEqual(2);
    v1.TaskStatusResponseSchema.parse({ task: { id: "t2" } });
    expect(builds().length, "a schema is built once").toBeLessThanOrEqual(2);

    expect(all.length).toBeGreaterThanOrEqual(80);
    const eager = all.filter(([, s]) => !(s instanceof z.ZodLazy)).map(([name]) => name);
    expect(eager, "exported API schemas built as their module loads").toEqual([]);
  });
});
