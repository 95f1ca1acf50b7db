/**
 * The HTTP server as an OAuth 2.1 resource server, end to end against a real OpenID provider
 * (oidc-provider) on loopback: the SDK client's own OAuth support completes discovery, dynamic
 * registration, authorization code + PKCE and the token request, then calls a tool; each bad
 * token is refused with the right status and challenge. The sandbox accepts only the server's
 * API key, so a passing tool call also shows the client's token was not sent upstream.
 */

import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { beforeAll, describe, expect, it } from "vitest";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useStarted } from "../helpers/read-through.js";
import { useSandbox } from "../helpers/sandbox.js";
import { INITIALIZE, raw, textOf } from "../http/helpers.js";
import { authorizeInBrowser, SERVICE_CLIENT, startProvider } from "./provider.js";

const KEY = "wdk_oauthSERVERKEY1234";
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
const serp = { name: "serp_search", arguments: { search_engine: "engine1_search", query: "quokka" } };

/** What an MCP client app keeps: registration, PKCE verifier and tokens, all in memory. */
class MemoryAuth implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "oauth e2e",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const sandbox = useSandbox({ key: KEY });
const provider = useStarted(
  "the OpenID provider",
  () => startProvider(),
  (p) => p.close(),
);
const other = useStarted(
  "the other OpenID provider",
  () => startProvider(),
  (p) => p.close(),
);
const http = useHttpServerOn(sandbox, KEY, () => ({
  server: {
    publicUrl: (port) => `http://127.0.0.1:${port}`,
    oauth: { issuer: provider.issuer, scopes: ["mcp:tools"] },
  },
}));
const opaqueHttp = useHttpServerOn(sandbox, KEY, () => ({
  server: {
    publicUrl: (port) => {
      provider.opaque.add(`http://127.0.0.1:${port}/mcp`);
      return `http://127.0.0.1:${port}`;
    },
    oauth: {
      issuer: provider.issuer,
      scopes: ["mcp:tools"],
      introspectionUrl: `${provider.issuer}/token/introspection`,
      clientId: SERVICE_CLIENT.id,
      clientSecret: SERVICE_CLIENT.secret,
    },
  },
}));
let resource: string;

beforeAll(() => {
  resource = http.url;
});

const initialize = (url: string, token?: string) =>
  raw(url, { body: INITIALIZE, headers: token ? { authorization: `Bearer ${token}` } : {} });

function challengeOf(response: { headers: Record<string, unknown> }): string {
  return String(response.headers["www-authenticate"] ?? "");
}

describe("OAuth resource server (oidc-provider on loopback)", () => {
  it("oauth(whole flow): discovery, registration, code + PKCE, token, tools/call", async () => {
    const auth = new MemoryAuth();
    const first = new Client({ name: "oauth-e2e", version: "1.0.0" });
    await expect(
      first.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: auth })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    await first.close();
    expect(auth.info?.client_id).toBeTruthy(); // dynamically registered
    const asked = auth.authorizationUrl as URL;
    expect(asked.origin).toBe(provider.issuer);
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked.searchParams.get("resource")).toBe(resource);
    expect(asked.searchParams.get("scope")).toContain("mcp:tools");

    const code = await authorizeInBrowser(asked, REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: auth });
    await transport.finishAuth(code);
    expect(auth.saved?.access_token.split(".")).toHaveLength(3); // a JWT for this resource

    const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = await client.callTool(serp);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(auth.saved?.access_token as string);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });

  it("oauth(metadata): RFC 9728 at the root and the /mcp-suffixed address", async () => {
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await raw(http.url.replace(/\/mcp$/, path));
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({
        resource,
        authorization_servers: [provider.issuer],
        scopes_supported: ["mcp:tools"],
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("oauth(no token): 401 with the resource_metadata challenge", async () => {
    const response = await initialize(http.url);
    expect(response.status).toBe(401);
    expect(challengeOf(response)).toBe(
      `Bearer resource_metadata="${http.url.replace(/\/mcp$/, "/.well-known/oauth-protected-resource/mcp")}", scope="mcp:tools"`,
    );
  });

  it("oauth(wrong audience): a token for another resource is refused", async () => {
    const token = await provider.clientToken("https://elsewhere.example/mcp", "mcp:tools");
    const response = await initialize(http.url, token);
    expect(response.status).toBe(401);
    expect(challengeOf(response)).toMatch(
      /^Bearer resource_metadata="[^"]+", scope="mcp:tools", error="invalid_token"/,
    );
    expect(response.json().error_description).toMatch(/not for this resource/);
  });

  it("oauth(expired): an expired token signed by the issuer is refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await provider.sign({
      aud: resource,
      scope: "mcp:tools",
      sub: "alice",
      client_id: "c1",
      iat: now - 7200,
      exp: now - 3600,
    });
    const response = await initialize(http.url, token);
    expect(response.status).toBe(401);
    expect(challengeOf(response)).toContain('error="invalid_token"');
    expect(response.json().error_description).toMatch(/expired/);
  });

  it("oauth(missing scope): 403 insufficient_scope naming the scope", async () => {
    const token = await provider.clientToken(resource, "mcp:read");
    const response = await initialize(http.url, token);
    expect(response.status).toBe(403);
    expect(challengeOf(response)).toContain('scope="mcp:tools", error="insufficient_scope"');
    expect(response.json().error_description).toMatch(/lacks the scope mcp:tools/);
  });

  it("oauth(other issuer): a valid token from another provider is refused", async () => {
    const token = await other.clientToken(resource, "mcp:tools");
    const response = await initialize(http.url, token);
    expect(response.status).toBe(401);
    expect(challengeOf(response)).toContain('error="invalid_token"');
    expect(response.json().error_description).toMatch(/another issuer/);
  });

  it("oauth(client credentials): a good token opens a session, and only its owner may use it", async () => {
    const token = await provider.clientToken(resource, "mcp:tools mcp:read");
    const opened = await initialize(http.url, token);
    expect(opened.status).toBe(200);
    const session = String(opened.headers["mcp-session-id"]);
    const stranger = await provider.sign({
      aud: resource,
      scope: "mcp:tools",
      sub: "mallory",
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const hijack = await raw(http.url, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
      headers: { authorization: `Bearer ${stranger}`, "mcp-session-id": session },
    });
    // Bound to the user who opened it: to anyone else the session does not exist.
    expect(hijack.status).toBe(404);
    const own = await raw(http.url, {
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
      headers: {
        authorization: `Bearer ${token}`,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-06-18",
      },
    });
    expect(own.status).toBe(200);
    await raw(http.url, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}`, "mcp-session-id": session },
    });
  });

  it("oauth(key header): x-webdata-api-key is refused with OAuth on and the switch unset, before upstream", async () => {
    const token = await provider.clientToken(resource, "mcp:tools");
    const bearer = { authorization: `Bearer ${token}` };
    const refusedInit = await raw(http.url, {
      body: INITIALIZE,
      headers: { ...bearer, "x-webdata-api-key": "wdk_callersOWNkeyQZXJ" },
    });
    expect(refusedInit.status).toBe(403);
    expect(refusedInit.body).toMatch(/does not accept x-webdata-api-key.*WEBDATA_HTTP_ALLOW_KEY_HEADER=1/);
    expect(refusedInit.body).not.toContain("wdk_callersOWNkeyQZXJ");

    const opened = await initialize(http.url, token);
    expect(opened.status).toBe(200);
    const session = String(opened.headers["mcp-session-id"]);
    const before = sandbox.requests.length;
    const call = await raw(http.url, {
      body: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "serp_search", arguments: { search_engine: "engine1_search", query: "tent" } },
      },
      headers: {
        ...bearer,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-06-18",
        "x-webdata-api-key": "wdk_callersOWNkeyQZXJ",
      },
    });
    expect(call.status).toBe(403);
    expect(call.json().error.message).toMatch(/^Forbidden: .*x-webdata-api-key/);
    // Never reached upstream.
    expect(sandbox.requests.length).toBe(before);
    await raw(http.url, { method: "DELETE", headers: { ...bearer, "mcp-session-id": session } });
  });

  it("oauth(opaque token): checked by introspection (RFC 7662), and refused when inactive", async () => {
    const audience = opaqueHttp.url;
    const token = await provider.clientToken(audience, "mcp:tools");
    expect(token.split(".")).toHaveLength(1);
    const ok = await initialize(opaqueHttp.url, token);
    expect(ok.status).toBe(200);
    await raw(opaqueHttp.url, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}`, "mcp-session-id": String(ok.headers["mcp-session-id"]) },
    });
    const bogus = await initialize(opaqueHttp.url, "not-a-real-token-at-all");
    expect(bogus.status).toBe(401);
    expect(bogus.json().error_description).toMatch(/not active/);
    const narrow = await initialize(opaqueHttp.url, await provider.clientToken(audience, "mcp:read"));
    expect(narrow.status).toBe(403);
  });
});
