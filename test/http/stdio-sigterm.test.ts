/**
 * Attack-run finding: stdio SIGTERM exited without answering the call in flight. Now the call gets
 * a JSON-RPC error that says what happened and what to do.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { spawnAgainst, startTestSandbox } from "../helpers/mcp.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ taskLatencyMs: 60_000 });
});

afterAll(async () => {
  await sandbox?.close();
});

describe("stdio SIGTERM", () => {
  it("answers the call in flight with a JSON-RPC error before exiting", async () => {
    const server = await spawnAgainst(sandbox);
    try {
      let inFlight!: () => void;
      const started = new Promise<void>((resolve) => {
        inFlight = resolve;
      });
      const call = server.client
        .callTool(
          { name: "extract_page", arguments: { url: `${sandbox.siteUrl}/about`, render: true } },
          CallToolResultSchema,
          { onprogress: () => inFlight() },
        )
        .then(
          () => "answered with a result",
          (error: Error) => error.message,
        );
      await started;
      process.kill(server.transport.pid!, "SIGTERM");
      expect(await call).toMatch(/shutting down \(SIGTERM\) before this call finished: call again/);
    } finally {
      await server.close();
    }
  });
});
