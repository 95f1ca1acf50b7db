/**
 * Who is calling: the HTTP layer's one place for authentication. An `Authenticator` looks at the
 * request and either refuses it or yields the SDK's `AuthInfo` (handed to tools as
 * `extra.authInfo`). The default checks the static access token (`WEBDATA_HTTP_TOKEN`); an OAuth
 * resource server plugs in as another `Authenticator` (`HttpServerOptions.authenticate`).
 * `principalOf` turns the outcome into the request's `Principal` (src/principal.ts).
 */
import { createHmac } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { type CredentialHash, Principal } from "../../../principal.js";
import { checkBearer } from "./guard.js";
import type { ResourceServer } from "./oauth/resource-server.js";

export type AuthOutcome =
  | { ok: true; auth?: AuthInfo }
  | {
      ok: false;
      status: 401 | 403 | 503;
      message: string;
      headers?: Record<string, string>;
      /** Sent as the JSON body instead of a JSON-RPC error (e.g. OAuth's `{error, error_description}`). */
      body?: unknown;
    };

export type Authenticator = (request: Request) => Promise<AuthOutcome> | AuthOutcome;

const CHALLENGE = { "www-authenticate": 'Bearer realm="web-data-mcp"' };

/** The client id the static token's `AuthInfo` names (a label only: nothing is decided by it). */
export const STATIC_TOKEN_SUBJECT = "webdata-http-token";

/**
 * The mark of an `AuthInfo` made by `staticTokenAuthenticator`: a value no token can carry (claims
 * are JSON), so a token whose `sub` or client id reads like the static token's label is still an
 * OAuth principal. Static-token and OAuth principals are disjoint by construction.
 */
const STATIC_TOKEN = Symbol("the static access token");

/** `Authorization: Bearer <token>` compared in constant time; no token configured means open. */
export function staticTokenAuthenticator(token: string | undefined): Authenticator {
  return (request) => {
    if (!token) return { ok: true };
    const authorization = request.headers.get("authorization") ?? undefined;
    const refused = checkBearer({ authorization }, token);
    if (refused) return { ok: false, ...refused, headers: CHALLENGE };
    return {
      ok: true,
      auth: { token, clientId: STATIC_TOKEN_SUBJECT, scopes: [], extra: { via: STATIC_TOKEN } },
    };
  };
}

/** The OAuth resource server as an `Authenticator`. */
export async function oauthAuthenticate(oauth: ResourceServer, request: Request): Promise<AuthOutcome> {
  const outcome = await oauth.authenticate(request.headers.get("authorization") ?? undefined);
  if (!outcome.refusal) return { ok: true, auth: outcome.authInfo };
  const { status, headers, body } = outcome.refusal;
  return { ok: false, status, message: body.error_description, headers, body };
}

/** A refusal of a request whose credential names no one (e.g. a token without `sub`). */
export interface PrincipalRefusal {
  status: 401;
  message: string;
  headers: Record<string, string>;
}

const NO_SUBJECT =
  "Unauthorized: the access token names no subject (sub claim): ask the authorization server for a token issued to a user or client";

/** HMAC-SHA256 of a credential with `salt`, shortened: what principals and key ids are made of. */
export function credentialHasher(salt: string | Buffer): CredentialHash {
  return (credential) =>
    createHmac("sha256", salt).update(credential, "utf8").digest("base64url").slice(0, 27);
}

/**
 * The one place a request becomes a principal. OAuth (an `AuthInfo` with `extra.iss`): issuer plus
 * subject, and a token without `sub` is refused; the static token: a hash of the token; no
 * authentication: a hash of the caller's own API key when it sent one, else the one anonymous
 * principal. A caller's own key never changes who it is when a token identified it: caps count
 * per principal, so a header cannot open new buckets.
 */
export function principalOf(
  auth: AuthInfo | undefined,
  apiKey: string | undefined,
  hash: CredentialHash,
): Principal | PrincipalRefusal {
  const keyId = apiKey === undefined ? undefined : hash(`key\n${apiKey}`);
  if (!auth) {
    return keyId === undefined
      ? new Principal(hash("anonymous"), "anonymous")
      : new Principal(keyId, "key", keyId);
  }
  if (auth.extra?.via === STATIC_TOKEN) {
    return new Principal(hash(`token\n${auth.token}`), "token", keyId);
  }
  const sub = auth.extra?.sub;
  if (typeof sub !== "string" || sub === "") {
    return {
      status: 401,
      message: NO_SUBJECT,
      headers: { "www-authenticate": 'Bearer error="invalid_token"' },
    };
  }
  const iss = typeof auth.extra?.iss === "string" ? auth.extra.iss : "";
  return new Principal(hash(`oauth\n${iss}\n${sub}`), "oauth", keyId);
}

/** `auth` with the principal on it: how the principal reaches the SDK's handlers (`extra.authInfo`). */
export function withPrincipal(auth: AuthInfo | undefined, principal: Principal): AuthInfo {
  const base = auth ?? { token: "", clientId: principal.kind, scopes: [] };
  return { ...base, extra: { ...base.extra, principal } };
}
