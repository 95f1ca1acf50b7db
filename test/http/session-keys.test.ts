/**
 * Per-session API keys (`X-Webdata-Api-Key` on initialize): the sandbox accepts only ALPHA, so a
 * session's outcome shows which key its requests carried.
 */
import { describe, expect, it } from "vitest";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, INITIALIZE, raw, textOf } from "./helpers.js";

const ALPHA = "wdk_alphaQZXJVKWPRTMN";
const BRAVO = "wdk_bravoHGZXQRTMNPKW";
const serpArgs = (query: string) => ({
  name: "serp_search",
  arguments: { search_engine: "engine1_search", query },
});

const sandbox = useSandbox({ key: ALPHA });
const envAlpha = useHttpServerOn(sandbox, ALPHA);
const envWrong = useHttpServerOn(sandbox, "wdk_wrongKEYNOTVALID");

describe("per-session API keys", () => {
  it("uses the session's own key, never the server's nor another session's", async () => {
    const fallback = await connect(envAlpha.url);
    const own = await connect(envAlpha.url, { "X-Webdata-Api-Key": BRAVO });
    try {
      sandbox.requests.length = 0;
      // Interleaved calls: the env-key session keeps working, the BRAVO session keeps failing.
      const rounds = await Promise.all(
        [1, 2, 3].flatMap((i) => [
          fallback.client.callTool(serpArgs(`zebrafish ${i}`)),
          own.client.callTool(serpArgs(`quokka ${i}`)),
        ]),
      );
      const fallbackResults = rounds.filter((_, i) => i % 2 === 0);
      const ownResults = rounds.filter((_, i) => i % 2 === 1);
      for (const r of fallbackResults) expect(r.isError, textOf(r)).toBeFalsy();
      for (const r of ownResults) {
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/401/);
        expect(JSON.stringify(r)).not.toContain(ALPHA);
        expect(JSON.stringify(r)).not.toContain(BRAVO);
        expect(JSON.stringify(r)).not.toMatch(/zebrafish/);
      }
      for (const r of fallbackResults) {
        expect(JSON.stringify(r)).toMatch(/zebrafish/); // its own query shows in its results
        expect(JSON.stringify(r)).not.toMatch(/quokka/);
      }
      const serp = sandbox.requests.filter((q) => q.path === "/v2/serp");
      expect(serp.filter((q) => q.status === 200)).toHaveLength(3);
      expect(serp.filter((q) => q.status === 401)).toHaveLength(3);
    } finally {
      await fallback.close();
      await own.close();
    }
  });

  it("lets a client's own valid key work where the server's key does not", async () => {
    const withKey = await connect(envWrong.url, { "X-Webdata-Api-Key": ALPHA });
    const without = await connect(envWrong.url);
    try {
      const good = await withKey.client.callTool(serpArgs("stove"));
      expect(good.isError, textOf(good)).toBeFalsy();
      expect(JSON.stringify(good)).not.toContain(ALPHA);
      const bad = await without.client.callTool(serpArgs("stove"));
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/401/);
      // A later request of the keyless session cannot switch keys by sending the header: the
      // session is bound to the credential that opened it, so another one does not find it.
      const again = await raw(envWrong.url, {
        headers: {
          "mcp-session-id": without.transport.sessionId!,
          "mcp-protocol-version": "2025-06-18",
          "x-webdata-api-key": ALPHA,
        },
        body: { jsonrpc: "2.0", id: 9, method: "tools/call", params: serpArgs("stove") },
      });
      expect(again.status).toBe(404);
      expect(again.body).not.toContain(ALPHA);
    } finally {
      await withKey.close();
      await without.close();
    }
  });

  it("names the key to check in a 401: the session's header key, else WEBDATA_API_KEY", async () => {
    const own = await connect(envAlpha.url, { "X-Webdata-Api-Key": BRAVO });
    const fallback = await connect(envWrong.url);
    try {
      const ownResult = await own.client.callTool(serpArgs("heron"));
      const ownText = textOf(ownResult);
      expect(ownText).toMatch(/401/);
      expect(ownText).toContain("the API key this session sent (X-Webdata-Api-Key)");
      expect(JSON.stringify(ownResult)).not.toContain("WEBDATA_API_KEY");
      const envText = textOf(await fallback.client.callTool(serpArgs("heron")));
      expect(envText).toMatch(/401/);
      expect(envText).toContain("WEBDATA_API_KEY in the server's environment");
      expect(envText).not.toContain("X-Webdata-Api-Key");
    } finally {
      await own.close();
      await fallback.close();
    }
  });

  it("refuses a malformed key header with 400 and never echoes it", async () => {
    const res = await raw(envAlpha.url, { headers: { "x-webdata-api-key": "two words" }, body: INITIALIZE });
    expect(res.status).toBe(400);
    expect(res.body).not.toContain("two words");
  });
});
