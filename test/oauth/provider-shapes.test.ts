/**
 * Issue 29: identity providers as they are. The HTTP server as a resource server of Keycloak,
 * Entra ID, Auth0, Okta and Cognito stand-ins (their discovery and keys on loopback, tokens shaped
 * per each provider's documentation: `provider-shapes.ts`), over real HTTP: each one's access
 * token opens a session, each one's ID token is refused; any `typ` but an access token's is
 * refused; strict RFC 9068 takes `at+jwt` only; a Cognito token (no `aud`) needs its client id
 * accepted. oidc-provider's `at+jwt` tokens: `oauth-e2e.test.ts`. The table: docs/oauth-telemetry.md.
 */
import { describe, expect, it } from "vitest";
import type { OAuthSettings } from "../../src/server/http/auth/oauth/settings.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useStarted } from "../helpers/read-through.js";
import { useSandbox } from "../helpers/sandbox.js";
import { INITIALIZE, raw } from "../http/helpers.js";
import { auth0Rfc9068, type ShapedProvider, startShapedProviders } from "./provider-shapes.js";

const KEY = "wdk_shapesQZXJVKWPRT";
const sandbox = useSandbox({ key: KEY });
const fake = useStarted("the identity providers", startShapedProviders, (p) => p.server.close());

/** An HTTP server that takes `name`'s tokens, configured as this product's docs say. */
function serverFor(name: string, extra: Partial<OAuthSettings> = {}) {
  return useHttpServerOn(sandbox, KEY, () => {
    const p = fake.providers[name] as ShapedProvider;
    return {
      server: {
        publicUrl: (port: number) => `http://127.0.0.1:${port}`,
        oauth: { issuer: p.issuer, ...p.settings, ...extra },
      },
    };
  });
}

const servers = {
  keycloak: serverFor("keycloak"),
  entra: serverFor("entra"),
  auth0: serverFor("auth0"),
  okta: serverFor("okta"),
  cognito: serverFor("cognito"),
};
const cognitoWithoutAudience = serverFor("cognito", { audiences: [] });
const strictAuth0 = serverFor("auth0", { strictJwt: true });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const initialize = (url: string, token: string) => raw(url, { body: INITIALIZE, headers: bearer(token) });

/** Opens a session with `token`, lists the tools in it, and closes it. */
async function useSession(url: string, token: string) {
  const opened = await initialize(url, token);
  expect(opened.status, opened.body).toBe(200);
  const session = String(opened.headers["mcp-session-id"]);
  const headers = { ...bearer(token), "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  const listed = await raw(url, { body: { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers });
  expect(listed.status).toBe(200);
  expect(listed.body).toContain("serp_search");
  await raw(url, { method: "DELETE", headers });
}

/** A 401 `invalid_token` whose description matches `why`. */
async function refused(url: string, token: string, why: RegExp) {
  const answer = await initialize(url, token);
  expect(answer.status, answer.body).toBe(401);
  expect(String(answer.headers["www-authenticate"])).toContain('error="invalid_token"');
  expect(answer.json().error_description).toMatch(why);
}

const resourceOf = (url: string) => url; // the server's URL is `${publicUrl}/mcp`: the resource

describe.each(Object.keys(servers))("%s", (name) => {
  const http = servers[name as keyof typeof servers];
  const provider = () => fake.providers[name] as ShapedProvider;

  it("its access token, as the provider issues it, opens a session and lists the tools", async () => {
    await useSession(http.url, await provider().access(resourceOf(http.url)));
  });

  it("its ID token is refused", async () => {
    await refused(http.url, await provider().idToken(), /not an access token|not for this resource/);
  });
});

describe("what is refused whatever the provider", () => {
  it("a typ header that is not an access token's: id_token, dpop+jwt, logout+jwt", async () => {
    const http = servers.keycloak;
    for (const typ of ["id_token", "dpop+jwt", "logout+jwt"]) {
      const token = await fake.providers.keycloak!.access(http.url, {}, typ);
      await refused(http.url, token, /not an access token: its typ header is/);
    }
  });

  it("an access token for another resource or another API", async () => {
    await refused(
      servers.keycloak.url,
      await fake.providers.keycloak!.access("https://elsewhere.example/mcp", {
        aud: ["https://elsewhere.example/mcp", "account"],
      }),
      /not for this resource/,
    );
    await refused(
      servers.entra.url,
      await fake.providers.entra!.access(servers.entra.url, { aud: "00000003-0000-0000-c000-000000000000" }),
      /not for this resource/,
    );
  });

  it("an Entra ID token of the accepted app without a nonce still lacks the required scope (403)", async () => {
    const token = await fake.providers.entra!.access(servers.entra.url, {
      scp: undefined,
      azp: undefined,
      azpacr: undefined,
    });
    const answer = await initialize(servers.entra.url, token);
    expect(answer.status).toBe(403);
    expect(answer.json().error).toBe("insufficient_scope");
  });

  it("a Cognito-shaped token that names another audience, though its client_id is accepted", async () => {
    const token = await fake.providers.cognito!.access(servers.cognito.url, {
      aud: "https://elsewhere.example/mcp",
    });
    await refused(servers.cognito.url, token, /not for this resource/);
  });

  it("a Cognito access token (no aud) when its client id is not an accepted audience", async () => {
    const token = await fake.providers.cognito!.access(cognitoWithoutAudience.url);
    await refused(
      cognitoWithoutAudience.url,
      token,
      /names no audience \(aud\) and its client_id is not an accepted audience/,
    );
  });
});

describe("strict RFC 9068 (WEBDATA_OAUTH_STRICT_JWT=1)", () => {
  it("takes Auth0's RFC 9068 profile (typ at+jwt) and refuses its default profile (typ JWT)", async () => {
    const auth0 = fake.providers.auth0!;
    await useSession(strictAuth0.url, await auth0Rfc9068(auth0, strictAuth0.url));
    await refused(strictAuth0.url, await auth0.access(strictAuth0.url), /takes at\+jwt only \(RFC 9068\)/);
  });
});

describe("the static token's label", () => {
  it("a token whose sub is the static token's label is an OAuth user like any other", async () => {
    const http = servers.keycloak;
    const as = { sub: "webdata-http-token", azp: "webdata-http-token" };
    const first = await fake.providers.keycloak!.access(http.url, as);
    const opened = await initialize(http.url, first);
    expect(opened.status).toBe(200);
    // Another token of the same user reaches the session: one OAuth principal (issuer + sub), not
    // a principal per token as the static token's would be.
    const second = await fake.providers.keycloak!.access(http.url, as);
    expect(second).not.toBe(first);
    const headers = {
      ...bearer(second),
      "mcp-session-id": String(opened.headers["mcp-session-id"]),
      "mcp-protocol-version": "2025-06-18",
    };
    const ping = await raw(http.url, { body: { jsonrpc: "2.0", id: 3, method: "ping" }, headers });
    expect(ping.status).toBe(200);
    await raw(http.url, { method: "DELETE", headers });
  });
});
