/**
 * Who is calling: the HTTP layer's one place for authentication. An `Authenticator` looks at the
 * request and either refuses it or yields the SDK's `AuthInfo` (handed to tools as
 * `extra.authInfo`). The default checks the static access token (`WEBDATA_HTTP_TOKEN`); an OAuth
 * resource server plugs in as another `Authenticator` (`HttpServerOptions.authenticate`).
 * Sessions are bound to `credentialId(auth, apiKey)`: the token subject plus the API key.
 */
import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
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

/** The subject the static token stands for (there is one token, so one subject). */
export const STATIC_TOKEN_SUBJECT = "webdata-http-token";

/** `Authorization: Bearer <token>` compared in constant time; no token configured means open. */
export function staticTokenAuthenticator(token: string | undefined): Authenticator {
  return (request) => {
    if (!token) return { ok: true };
    const authorization = request.headers.get("authorization") ?? undefined;
    const refused = checkBearer({ authorization }, token);
    if (refused) return { ok: false, ...refused, headers: CHALLENGE };
    return {
      ok: true,
      auth: { token, clientId: STATIC_TOKEN_SUBJECT, scopes: [], extra: { sub: STATIC_TOKEN_SUBJECT } },
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

/** The subject of an `AuthInfo`: `extra.sub` (after `extra.iss`) when the verifier set one, else the client id. */
export function subjectOf(auth: AuthInfo | undefined): string {
  const sub = auth?.extra?.sub;
  const iss = auth?.extra?.iss;
  const who = typeof sub === "string" && sub ? sub : (auth?.clientId ?? "");
  return typeof iss === "string" ? `${iss} ${who}` : who;
}

/** A hash naming the credential (subject + API key); never the secrets themselves. */
export function credentialId(auth: AuthInfo | undefined, apiKey: string | undefined): string {
  return createHash("sha256")
    .update(`${subjectOf(auth)}\n${apiKey ?? ""}`, "utf8")
    .digest("base64url");
}
