/**
 * RFC 7662 introspection is bounded (issue 23): a refused token is remembered for a while (a
 * negative cache), the introspection endpoint is called at a bounded rate however many tokens
 * arrive (beyond it: 503 temporarily_unavailable, never a call), and a token the endpoint calls
 * something other than an access token is refused.
 */

import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { describe, expect, it } from "vitest";
import { Introspector } from "../../src/server/http/auth/oauth/introspection.js";
import type { OAuthSettings } from "../../src/server/http/auth/oauth/settings.js";

const RESOURCE = "https://mcp.example.com/mcp";
const settings = {
  issuer: "https://as.example.com",
  introspectionUrl: "https://as.example.com/introspect",
  scopes: [],
} as unknown as OAuthSettings;

function endpoint(answer: (token: string) => Record<string, unknown>) {
  const calls: string[] = [];
  const fetchImpl = (async (_url: string, init: { body: string }) => {
    const token = new URLSearchParams(init.body).get("token") ?? "";
    calls.push(token);
    return new Response(JSON.stringify(answer(token)), { headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

const active = (extra: Record<string, unknown> = {}) => ({
  active: true,
  sub: "alice",
  iss: settings.issuer,
  aud: RESOURCE,
  exp: Math.floor(Date.now() / 1000) + 600,
  ...extra,
});

describe("Introspector", () => {
  it("remembers a refused token instead of asking again", async () => {
    const { calls, fetchImpl } = endpoint(() => ({ active: false }));
    const introspector = new Introspector(settings, RESOURCE, fetchImpl);
    for (let i = 0; i < 5; i++)
      await expect(introspector.check("opaque-bad")).rejects.toBeInstanceOf(OAuthError);
    expect(calls).toEqual(["opaque-bad"]);
  });

  it("calls the endpoint at a bounded rate; the rest get 503 without a call", async () => {
    const { calls, fetchImpl } = endpoint(() => active());
    const introspector = new Introspector(settings, RESOURCE, fetchImpl, { now: () => 1_000_000 });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => introspector.check(`opaque-${i}`).catch((e: OAuthError) => e)),
    );
    const refused = outcomes.filter((o) => o instanceof OAuthError) as OAuthError[];
    expect(calls.length).toBeLessThan(200);
    expect(calls.length).toBeGreaterThan(0);
    expect(refused.length).toBe(200 - calls.length);
    for (const r of refused) expect(r.errorCode).toBe("temporarily_unavailable");
  });

  it("refuses a token the endpoint says is not an access token", async () => {
    const { fetchImpl } = endpoint(() => active({ token_type: "refresh_token" }));
    const refused = await new Introspector(settings, RESOURCE, fetchImpl)
      .check("opaque-refresh")
      .catch((e) => e);
    expect(refused).toBeInstanceOf(OAuthError);
    expect((refused as Error).message).toMatch(/access token/);
    const { fetchImpl: bearer } = endpoint(() => active({ token_type: "Bearer" }));
    await expect(new Introspector(settings, RESOURCE, bearer).check("opaque-ok")).resolves.toMatchObject({
      extra: { sub: "alice" },
    });
  });
});

describe("Introspector audience", () => {
  it("takes the operator's accepted audiences, and a client_id among them only when aud is absent", async () => {
    const accepted = { ...settings, scopes: [], audiences: ["app-client-1"] } as OAuthSettings;
    const answers: Record<string, Record<string, unknown>> = {
      named: active({ aud: "app-client-1" }),
      "no-aud": active({ aud: undefined, client_id: "app-client-1" }),
      elsewhere: active({ aud: "https://elsewhere.example/mcp", client_id: "app-client-1" }),
    };
    const { fetchImpl } = endpoint((token) => answers[token] as Record<string, unknown>);
    const introspector = new Introspector(accepted, RESOURCE, fetchImpl);
    await expect(introspector.check("named")).resolves.toMatchObject({ extra: { sub: "alice" } });
    await expect(introspector.check("no-aud")).resolves.toMatchObject({ extra: { sub: "alice" } });
    // A token that names another audience is not let in by its client_id.
    await expect(introspector.check("elsewhere")).rejects.toThrow(/not for this resource/);
    // Without the setting, a token without aud names no audience.
    const plain = new Introspector(settings, RESOURCE, endpoint(() => answers["no-aud"] as never).fetchImpl);
    await expect(plain.check("no-aud")).rejects.toThrow(/names no audience/);
  });
});
