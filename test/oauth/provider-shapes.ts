/**
 * Stand-ins for the common identity providers: each one an issuer on a fake server (its discovery
 * document at the address the provider serves it, its key set) and the access and ID tokens it
 * signs, header and claims shaped as its documentation shows them:
 * - Keycloak: `typ: JWT` header; `typ: "Bearer"` / `"ID"` claim, `azp`, `scope`, `aud` with the
 *   resource added by an audience mapper next to `account`; discovery under the realm's path;
 * - Microsoft Entra ID (v2 tokens): `typ: JWT`; `ver: "2.0"`, `tid`, `oid`, `azp`, `scp` (a space
 *   list), `aud` = the API's client id; issuer `…/{tenant}/v2.0`, discovery under it;
 * - Auth0: `typ: JWT` (default token profile); `scope`, `azp`, `aud` = [the API identifier, the
 *   userinfo URL]; issuer with a trailing slash; its RFC 9068 profile: `typ: at+jwt`, `client_id`;
 * - Okta (custom authorization server): no `typ`; `ver: 1`, `jti: "AT.…"`, `cid`, `uid`, `scp` (an
 *   array), `aud` = the server's configured audience; RFC 8414 discovery;
 * - Amazon Cognito: no `typ`; access token without `aud`: `client_id`, `token_use: "access"`,
 *   `scope`, `version: 2`; the ID token has `aud` = the client id and `token_use: "id"`.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { type FakeServer, json, startFakeServer } from "../helpers/fake-upstream.js";

export interface ShapedProvider {
  name: string;
  issuer: string;
  /** What the operator sets for this provider besides the issuer (scopes, accepted audiences). */
  settings: { scopes: string[]; audiences?: string[] };
  /** A user's access token for `resource`, as the provider issues it; `claims` override. */
  access(resource: string, claims?: Record<string, unknown>, typ?: string): Promise<string>;
  /** The same user's ID token. */
  idToken(): Promise<string>;
}

type Key = { kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"]; jwk: JWK };

async function rsaKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

const now = () => Math.floor(Date.now() / 1000);

function signer(key: Key, typ: string | undefined) {
  return (claims: Record<string, unknown>, headerTyp = typ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: key.kid, ...(headerTyp ? { typ: headerTyp } : {}) })
      .sign(key.privateKey);
}

interface Route {
  discovery: string[];
  jwks: string;
  issuer: string;
  key: Key;
}

/** One fake server holding every provider's discovery documents and key sets. */
export async function startShapedProviders(): Promise<{
  providers: Record<string, ShapedProvider>;
  server: FakeServer;
}> {
  const routes: Route[] = [];
  const server = await startFakeServer((req, res) => {
    for (const route of routes) {
      if (route.discovery.includes(req.url))
        return json(res, 200, { issuer: route.issuer, jwks_uri: `${origin}${route.jwks}` });
      if (req.url === route.jwks) return json(res, 200, { keys: [route.key.jwk] });
    }
    json(res, 404, { error: "not_found" });
  });
  const origin = server.url;
  const add = async (path: string, discovery: string[], jwks: string) => {
    const key = await rsaKey();
    const issuer = `${origin}${path}`;
    routes.push({ issuer, discovery, jwks, key });
    return { issuer, key };
  };

  // Keycloak: https://host/realms/{realm}
  const kc = await add(
    "/realms/acme",
    ["/realms/acme/.well-known/openid-configuration"],
    "/realms/acme/protocol/openid-connect/certs",
  );
  const kcSign = signer(kc.key, "JWT");
  const kcUser = randomUUID();
  const keycloak: ShapedProvider = {
    name: "Keycloak",
    issuer: kc.issuer,
    settings: { scopes: ["mcp:tools"] },
    access: (resource, claims = {}, typ?: string) =>
      kcSign(
        {
          exp: now() + 300,
          iat: now(),
          auth_time: now() - 5,
          jti: `onrtac:${randomUUID()}`,
          iss: kc.issuer,
          aud: [resource, "account"],
          sub: kcUser,
          typ: "Bearer",
          azp: "mcp-client",
          sid: randomUUID(),
          acr: "1",
          "allowed-origins": ["http://127.0.0.1"],
          realm_access: { roles: ["offline_access", "default-roles-acme", "uma_authorization"] },
          resource_access: { account: { roles: ["manage-account", "view-profile"] } },
          scope: "openid profile email mcp:tools",
          email_verified: true,
          name: "Alice Doe",
          preferred_username: "alice",
          email: "alice@example.com",
          ...claims,
        },
        typ,
      ),
    idToken: () =>
      kcSign({
        exp: now() + 300,
        iat: now(),
        auth_time: now() - 5,
        jti: randomUUID(),
        iss: kc.issuer,
        aud: "mcp-client",
        sub: kcUser,
        typ: "ID",
        azp: "mcp-client",
        sid: randomUUID(),
        at_hash: "x4Ku0tZ6VfmIfu6-B5Ct3A",
        acr: "1",
        email_verified: true,
        preferred_username: "alice",
      }),
  };

  // Entra ID: https://login.microsoftonline.com/{tenant}/v2.0, discovery appended to it.
  const tid = randomUUID();
  const en = await add(
    `/${tid}/v2.0`,
    [`/${tid}/v2.0/.well-known/openid-configuration`],
    `/${tid}/discovery/v2.0/keys`,
  );
  const enSign = signer(en.key, "JWT");
  const apiApp = randomUUID();
  const clientApp = randomUUID();
  const oid = randomUUID();
  const entraCommon = () => ({
    iss: en.issuer,
    iat: now(),
    nbf: now(),
    exp: now() + 3600,
    aio: "AWQAm/8YAAAA",
    name: "Alice Doe",
    oid,
    preferred_username: "alice@contoso.example",
    rh: "0.AXEA1234.",
    sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    tid,
    uti: "fqiBqXLPj0eQa82S-IYFAA",
    ver: "2.0",
  });
  const entra: ShapedProvider = {
    name: "Microsoft Entra ID (v2)",
    issuer: en.issuer,
    settings: { scopes: ["mcp.tools"], audiences: [apiApp] },
    access: (_resource, claims = {}, typ?: string) =>
      enSign(
        { ...entraCommon(), aud: apiApp, azp: clientApp, azpacr: "0", scp: "mcp.tools", ...claims },
        typ,
      ),
    // An ID token of the API's own app registration: its audience is the accepted client id.
    idToken: () => enSign({ ...entraCommon(), aud: apiApp, nonce: randomUUID() }),
  };

  // Auth0: https://{tenant}.auth0.com/ (a trailing slash in iss), discovery at the root.
  const a0 = await add("/", ["/.well-known/openid-configuration"], "/.well-known/jwks.json");
  const a0Sign = signer(a0.key, "JWT");
  const a0Client = "AbCdEfGh0123456789ijklMNOPqrst";
  const auth0: ShapedProvider = {
    name: "Auth0",
    issuer: a0.issuer,
    settings: { scopes: ["mcp:tools"] },
    access: (resource, claims = {}, typ?: string) =>
      a0Sign(
        {
          iss: a0.issuer,
          sub: "auth0|64b7c1f2e1d3a4b5c6d7e8f9",
          aud: [resource, `${a0.issuer}userinfo`],
          iat: now(),
          exp: now() + 86400,
          scope: "openid profile email mcp:tools",
          azp: a0Client,
          ...claims,
        },
        typ,
      ),
    idToken: () =>
      a0Sign({
        iss: a0.issuer,
        sub: "auth0|64b7c1f2e1d3a4b5c6d7e8f9",
        aud: a0Client,
        iat: now(),
        exp: now() + 36000,
        sid: randomUUID(),
        nonce: randomUUID(),
        name: "alice@example.com",
        nickname: "alice",
        updated_at: "2026-11-01T10:00:00.000Z",
      }),
  };

  // Okta custom authorization server: https://{org}.okta.com/oauth2/{server}, RFC 8414 discovery.
  const ok = await add(
    "/oauth2/default",
    [
      "/.well-known/oauth-authorization-server/oauth2/default",
      "/oauth2/default/.well-known/openid-configuration",
    ],
    "/oauth2/default/v1/keys",
  );
  const okSign = signer(ok.key, undefined);
  const okUid = "00u1a2b3c4D5e6F7g8h9";
  const okCid = "0oa1b2c3d4E5f6G7h8i9";
  const okta: ShapedProvider = {
    name: "Okta (custom authorization server)",
    issuer: ok.issuer,
    settings: { scopes: ["mcp:tools"] },
    access: (resource, claims = {}, typ?: string) =>
      okSign(
        {
          ver: 1,
          jti: `AT.${randomUUID()}`,
          iss: ok.issuer,
          aud: resource,
          iat: now(),
          exp: now() + 3600,
          cid: okCid,
          uid: okUid,
          scp: ["openid", "mcp:tools"],
          auth_time: now() - 10,
          sub: "alice@example.com",
          ...claims,
        },
        typ,
      ),
    idToken: () =>
      okSign({
        sub: okUid,
        name: "Alice Doe",
        ver: 1,
        iss: ok.issuer,
        aud: okCid,
        iat: now(),
        exp: now() + 3600,
        jti: `ID.${randomUUID()}`,
        amr: ["pwd"],
        idp: "00o1a2b3c4d5e6f7g8h9",
        preferred_username: "alice@example.com",
        auth_time: now() - 10,
        at_hash: "fPlsvVszI29LU2UhDyJ9vg",
      }),
  };

  // Amazon Cognito: https://cognito-idp.{region}.amazonaws.com/{pool id}, discovery appended.
  const cg = await add(
    "/us-east-1_AbCdEf123",
    ["/us-east-1_AbCdEf123/.well-known/openid-configuration"],
    "/us-east-1_AbCdEf123/.well-known/jwks.json",
  );
  const cgSign = signer(cg.key, undefined);
  const cgClient = "1example23456789abcdefghij";
  const cgUser = randomUUID();
  const cognito: ShapedProvider = {
    name: "Amazon Cognito",
    issuer: cg.issuer,
    settings: { scopes: ["web-data/tools"], audiences: [cgClient] },
    access: (_resource, claims = {}, typ?: string) =>
      cgSign(
        {
          sub: cgUser,
          "cognito:groups": ["users"],
          iss: cg.issuer,
          version: 2,
          client_id: cgClient,
          origin_jti: randomUUID(),
          event_id: randomUUID(),
          token_use: "access",
          scope: "openid web-data/tools",
          auth_time: now(),
          exp: now() + 3600,
          iat: now(),
          jti: randomUUID(),
          username: "alice",
          ...claims,
        },
        typ,
      ),
    idToken: () =>
      cgSign({
        at_hash: "cTXSl1Mo3qUV1oc9gEzCRA",
        sub: cgUser,
        "cognito:groups": ["users"],
        email_verified: true,
        iss: cg.issuer,
        "cognito:username": "alice",
        origin_jti: randomUUID(),
        aud: cgClient,
        event_id: randomUUID(),
        token_use: "id",
        auth_time: now(),
        exp: now() + 3600,
        iat: now(),
        jti: randomUUID(),
        email: "alice@example.com",
      }),
  };

  return { providers: { keycloak, entra, auth0, okta, cognito }, server };
}

/** Auth0's RFC 9068 token profile (an API setting): `typ: at+jwt`, `client_id`. */
export function auth0Rfc9068(provider: ShapedProvider, resource: string): Promise<string> {
  return provider.access(resource, { client_id: "AbCdEfGh0123456789ijklMNOPqrst", azp: undefined }, "at+jwt");
}
