/**
 * The stdio server's zod parsers: jitless for the handshake, compiled again for what the tools'
 * runtime builds (src/server/zod-jitless.ts), switched by createServer's `beforeRuntime` once,
 * before the runtime loads.
 */

import { afterAll, describe, expect, it } from "vitest";
import * as z from "zod";

// zod keeps its config on globalThis: this file puts back what the worker had.
const previous = z.config().jitless;
afterAll(() => {
  z.config({ jitless: previous });
});

const { compileParsers } = await import("../../src/server/zod-jitless.js");
const { startInProcessServer } = await import("../helpers/in-process.js");

describe("zod's parsers on the stdio server", () => {
  it("are jitless once the module is loaded and compiled again after compileParsers", () => {
    expect(z.config().jitless).toBe(true);
    compileParsers();
    expect(z.config().jitless).toBe(false);
    const built = z.object({ a: z.string(), b: z.number().optional() });
    expect(built.parse({ a: "x", b: 1 })).toEqual({ a: "x", b: 1 });
    expect(built.safeParse({ a: 1 }).success).toBe(false);
  });

  it("switch once, before the tools' runtime loads, however many ask for it at once", async () => {
    const seen: Array<{ toolsLoaded: number }> = [];
    let server: Awaited<ReturnType<typeof startInProcessServer>> | undefined;
    server = await startInProcessServer({
      env: { WEBDATA_API_KEY: "wdk_zodJitlessQZXJVKW", WEBDATA_BASE_URL: "http://127.0.0.1:9" },
      beforeRuntime: () => seen.push({ toolsLoaded: server?.app.tools.size ?? 0 }),
    });
    try {
      await Promise.all([server.app.runtime(), server.app.runtime(), server.client.listTools()]);
      expect(seen).toEqual([{ toolsLoaded: 0 }]);
      expect(server.app.tools.size).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
