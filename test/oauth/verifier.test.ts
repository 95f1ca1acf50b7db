/**
 * The token verifier against a hand-run issuer (discovery document + JWKS on loopback): keys and
 * discovery are fetched once and cached, a new `kid` after a rotation is picked up without a new
 * verifier, and the settings refuse contradictory configurations.
 */
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createResourceServer } from "../../src/server/http/auth/oauth/resource-server.js";
import { readOAuthSettings } from "../../src/server/http/auth/oauth/settings.js";

/** The OAuth variables as the one config loader reads them from an environment. */
const oauthVariables = (env: NodeJS.ProcessEnv) =>
  loadConfig(env, { sandbox: true, http: true }).http?.oauth ?? {};

import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { statusOf } from "../../src/server/http/auth/oauth/token-error.js";
import { createTokenVerifier } from "../../src/server/http/auth/oauth/verifier.js";
import { closedPort, type FakeServer, json, startFakeServer } from "../helpers/fake-upstream.js";

const RESOURCE = "https://mcp.example.com/mcp";

async function key(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { kid, privateKey, jwk };
}

/** The issuer stand-in: discovery and the key set under `/tenant`, counted. */
let server: FakeServer;
let issuer: string;
let published: JWK[] = [];
const hits = { discovery: 0, jwks: 0 };

beforeAll(async () => {
  server = await startFakeServer((req, res) => {
    if (req.url === "/.well-known/oauth-authorization-server/tenant") {
      hits.discovery += 1;
      json(res, 200, { issuer, jwks_uri: `${issuer}/jwks` });
    } else if (req.url === "/tenant/jwks") {
      hits.jwks += 1;
      json(res, 200, { keys: published });
    } else {
      json(res, 404, {});
    }
  });
  issuer = `${server.url}/tenant`;
});

afterAll(() => server.close());

const sign = (k: Awaited<ReturnType<typeof key>>, claims: Record<string, unknown> = {}, typ = "at+jwt") =>
  new SignJWT({ scope: "mcp:tools", client_id: "app", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: k.kid, ...(typ ? { typ } : {}) })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject("alice")
    .setExpirationTime("10m")
    .sign(k.privateKey);

describe("token verifier", () => {
  it("verifier(caching and rotation): one discovery, one JWKS fetch per new kid", async () => {
    const first = await key("k1");
    const second = await key("k2");
    published = [first.jwk];
    const verifier = createTokenVerifier({ issuer, scopes: ["mcp:tools"] }, RESOURCE, { jwksCooldownMs: 0 });
    const info = await verifier.verifyAccessToken(await sign(first));
    expect(info).toMatchObject({ clientId: "app", scopes: ["mcp:tools"], extra: { sub: "alice" } });
    await verifier.verifyAccessToken(await sign(first));
    expect(hits).toEqual({ discovery: 1, jwks: 1 });

    published = [second.jwk]; // the issuer rotates its key
    const rotated = await verifier.verifyAccessToken(await sign(second));
    expect(rotated.clientId).toBe("app");
    expect(hits).toEqual({ discovery: 1, jwks: 2 });

    const stale = verifier.verifyAccessToken(await sign(first));
    await expect(stale).rejects.toBeInstanceOf(OAuthError);
    await expect(stale).rejects.toThrow(/key the issuer does not publish/);
  });

  it("verifier(claims): not-before, missing expiry and scp lists", async () => {
    const k = await key("k3");
    published = [k.jwk];
    const verifier = createTokenVerifier({ issuer, scopes: ["mcp:tools"] }, RESOURCE, { jwksCooldownMs: 0 });
    const future = Math.floor(Date.now() / 1000) + 3600;
    await expect(verifier.verifyAccessToken(await sign(k, { nbf: future }))).rejects.toThrow(/not valid yet/);
    const noExp = await new SignJWT({ scope: "mcp:tools" })
      .setProtectedHeader({ alg: "ES256", kid: k.kid, typ: "at+jwt" })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .sign(k.privateKey);
    await expect(verifier.verifyAccessToken(noExp)).rejects.toThrow(/exp/);
    const scp = await verifier.verifyAccessToken(
      await sign(k, { scope: undefined, scp: ["mcp:tools", "x"] }),
    );
    expect(scp.scopes).toEqual(["mcp:tools", "x"]);
    await expect(verifier.verifyAccessToken("opaque-token")).rejects.toThrow(/no introspection endpoint/);
  });
});

describe("token type", () => {
  const verifierWith = (env: NodeJS.ProcessEnv) =>
    createTokenVerifier(
      readOAuthSettings(oauthVariables({ WEBDATA_OAUTH_ISSUER: issuer, ...env }), {
        publicUrl: "https://mcp.example.com",
      })!,
      RESOURCE,
    );
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it("verifier(typ): at+jwt, application/at+jwt and JWT in any case, and no typ, pass; any other typ is refused", async () => {
    const k = await key("typ-key");
    published = [...published, k.jwk];
    const verifier = verifierWith({});
    for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT", "JWT", "jwt", "application/JWT", ""]) {
      await expect(
        verifier.verifyAccessToken(await sign(k, {}, typ)),
        typ || "(none)",
      ).resolves.toMatchObject({
        extra: { sub: "alice" },
      });
    }
    for (const typ of [
      "id_token",
      "id_token+jwt",
      "dpop+jwt",
      "logout+jwt",
      "application/secevent+jwt",
      "JOSE",
    ]) {
      const refused = await refusal(verifier.verifyAccessToken(await sign(k, {}, typ)));
      expect(refused, typ).toBeInstanceOf(OAuthError);
      expect(refused?.message).toMatch(
        /not an access token: its typ header is .*at\+jwt, application\/at\+jwt or JWT/,
      );
    }
  });

  it("verifier(strict typ): with WEBDATA_OAUTH_STRICT_JWT=1 only at+jwt passes (RFC 9068)", async () => {
    const k = await key("strict-key");
    published = [...published, k.jwk];
    const verifier = verifierWith({ WEBDATA_OAUTH_STRICT_JWT: "1" });
    for (const typ of ["at+jwt", "application/AT+JWT"]) {
      await expect(verifier.verifyAccessToken(await sign(k, {}, typ))).resolves.toBeDefined();
    }
    for (const typ of ["JWT", ""]) {
      const refused = await refusal(verifier.verifyAccessToken(await sign(k, {}, typ)));
      expect(refused, typ || "(none)").toBeInstanceOf(OAuthError);
      expect(refused?.message).toMatch(/takes at\+jwt only \(RFC 9068\)/);
    }
  });

  it("verifier(ID-token marks): token_use id, a typ claim of ID, nonce or at_hash refuse a token whatever its header", async () => {
    const k = await key("marks-key");
    published = [...published, k.jwk];
    const verifier = verifierWith({});
    for (const claims of [
      { token_use: "id" },
      { typ: "ID" },
      { typ: "Refresh" },
      { nonce: "n" },
      { at_hash: "h" },
    ]) {
      const refused = await refusal(verifier.verifyAccessToken(await sign(k, claims, "JWT")));
      expect(refused, JSON.stringify(claims)).toBeInstanceOf(OAuthError);
      expect(refused?.message).toMatch(/not an access token \(.*\); an ID token cannot call this server/);
    }
    // Their access-token counterparts pass.
    for (const claims of [{ token_use: "access" }, { typ: "Bearer" }]) {
      await expect(verifier.verifyAccessToken(await sign(k, claims, "JWT"))).resolves.toBeDefined();
    }
  });
});

describe("OAuth settings", () => {
  const env = {
    WEBDATA_OAUTH_ISSUER: "https://login.example.com/tenant",
    WEBDATA_OAUTH_SCOPES: "mcp:tools, mcp:read",
  };

  it("settings(off): nothing set is no OAuth", () => {
    expect(readOAuthSettings(oauthVariables({}), {})).toBeUndefined();
  });

  it("settings(audiences): a space or comma list", () => {
    const settings = readOAuthSettings(
      oauthVariables({
        ...env,
        WEBDATA_OAUTH_AUDIENCE: "api://default, 6e74172b-be56-4843-9ff4-e66a39bb12e3",
      }),
      { publicUrl: "https://mcp.example.com" },
    );
    expect(settings?.audiences).toEqual(["api://default", "6e74172b-be56-4843-9ff4-e66a39bb12e3"]);
    // An accepted audience is often a client id, what its ID tokens name too: a scope is required.
    expect(() =>
      readOAuthSettings(
        oauthVariables({
          WEBDATA_OAUTH_ISSUER: env.WEBDATA_OAUTH_ISSUER,
          WEBDATA_OAUTH_AUDIENCE: "6e74172b",
        }),
        { publicUrl: "https://mcp.example.com" },
      ),
    ).toThrow(/WEBDATA_OAUTH_AUDIENCE needs WEBDATA_OAUTH_SCOPES as well/);
  });

  it("settings(on): scopes split on spaces or commas", () => {
    expect(readOAuthSettings(oauthVariables(env), { publicUrl: "https://mcp.example.com" })).toEqual({
      issuer: "https://login.example.com/tenant",
      scopes: ["mcp:tools", "mcp:read"],
      introspectionUrl: undefined,
      clientId: undefined,
      clientSecret: undefined,
      audiences: [],
      strictJwt: false,
    });
  });

  it("settings(static token too): a start-up error saying to choose one", () => {
    expect(() =>
      readOAuthSettings(oauthVariables(env), { httpToken: "t0ken", publicUrl: "https://mcp.example.com" }),
    ).toThrow(/both WEBDATA_OAUTH_ISSUER and a static access token .* choose one/);
  });

  it("settings(no public URL, half a client credential, bad URL): each says what to set", () => {
    expect(() => readOAuthSettings(oauthVariables(env), {})).toThrow(/needs WEBDATA_PUBLIC_URL/);
    expect(() =>
      readOAuthSettings(oauthVariables({ ...env, WEBDATA_OAUTH_CLIENT_ID: "rs" }), {
        publicUrl: "https://mcp.example.com",
      }),
    ).toThrow(/set both WEBDATA_OAUTH_CLIENT_ID and WEBDATA_OAUTH_CLIENT_SECRET/);
    expect(() =>
      readOAuthSettings(oauthVariables({ WEBDATA_OAUTH_ISSUER: "login.example.com" }), {
        publicUrl: "https://mcp.example.com",
      }),
    ).toThrow(/not a valid URL/);
    expect(() =>
      readOAuthSettings(oauthVariables({ WEBDATA_OAUTH_INTROSPECTION_URL: "https://x.example/i" }), {}),
    ).toThrow(/needs WEBDATA_OAUTH_ISSUER/);
    for (const alone of [{ WEBDATA_OAUTH_AUDIENCE: "api://default" }, { WEBDATA_OAUTH_STRICT_JWT: "1" }]) {
      expect(() => readOAuthSettings(oauthVariables(alone), {})).toThrow(/needs WEBDATA_OAUTH_ISSUER/);
    }
    expect(() => oauthVariables({ WEBDATA_OAUTH_STRICT_JWT: "maybe" })).toThrow(
      /WEBDATA_OAUTH_STRICT_JWT must be 1 or 0/,
    );
  });
});

/** A token of `issuer` signed with a fresh key (its issuer cannot be asked for it anyway). */
async function signedBy(issuer: string): Promise<string> {
  const k = await key("k-unreachable");
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: k.kid })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setExpirationTime("10m")
    .sign(k.privateKey);
}

describe("an issuer that does not answer", () => {
  it("verifier(issuer down): 503 temporarily_unavailable, not a 401 that would restart authorization", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const rs = createResourceServer(
      { issuer: down, scopes: [], introspectionUrl: `${down}/introspect` },
      { publicUrl: "https://mcp.example.com", mcpPath: "/mcp" },
    );
    const jwt = await signedBy(down);
    for (const token of [jwt, "opaque-token-value"]) {
      const outcome = await rs.authenticate(`Bearer ${token}`);
      expect(outcome.refusal?.status).toBe(503);
      expect(outcome.refusal?.body.error).toBe("temporarily_unavailable");
      expect(outcome.refusal?.headers["retry-after"]).toBe("5");
    }
  });

  it("verifier(key set unreachable): discovery works but the JWKS does not → 503", async () => {
    published = [];
    const broken = await startFakeServer((req, res) => {
      if (req.url === "/.well-known/oauth-authorization-server") {
        json(res, 200, { issuer: broken.url, jwks_uri: `${broken.url}/jwks` });
      } else {
        json(res, 500, {});
      }
    });
    const brokenIssuer = broken.url;
    try {
      const jwt = await signedBy(brokenIssuer);
      const verifier = createTokenVerifier({ issuer: brokenIssuer, scopes: [] }, RESOURCE);
      const failed = await verifier.verifyAccessToken(jwt).catch((error: OAuthError) => error);
      expect(failed).toMatchObject({ errorCode: "temporarily_unavailable" });
      expect(statusOf(failed as OAuthError)).toBe(503);
    } finally {
      await broken.close();
    }
  });
});
