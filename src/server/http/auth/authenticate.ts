/**
 * Who is calling: the HTTP layer's one place for authentication. An `Authenticator` looks at the
 * request and either refuses it or yields the caller's `Identity`, a typed value of ours: the
 * static access token (`WEBDATA_HTTP_TOKEN`, the default) or an OAuth issuer and subject (the
 * resource server, `./oauth/`, plugs in as another `Authenticator`; so may one given in
 * `HttpServerOptions.authenticate`). `./principal.ts` turns it into the request's `Principal`.
 * Nothing of it rides on the SDK's `AuthInfo`: the principal reaches the tools in the request's
 * scope (`RequestScope`, src/server/call-scope.ts).
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { checkBearer } from "./guard.js";
import type { ResourceServer } from "./oauth/resource-server.js";

/**
 * Who a verified credential names. The kinds are disjoint by construction: an OAuth token whose
 * `sub` or client id reads like anything of the static token's is still an OAuth identity.
 */
export type Identity =
  | { kind: "token"; token: string }
  /** `subject` absent: the token names no one (refused by `principalOf`). */
  | { kind: "oauth"; issuer: string; subject?: string };

export type AuthOutcome =
  /** `identity: null`: no authentication configured (the caller is known by its own key, if any). */
  | { ok: true; identity: Identity | null }
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

/** `Authorization: Bearer <token>` compared in constant time; no token configured means open. */
export function staticTokenAuthenticator(token: string | undefined): Authenticator {
  return (request) => {
    if (!token) return { ok: true, identity: null };
    const authorization = request.headers.get("authorization") ?? undefined;
    const refused = checkBearer({ authorization }, token);
    if (refused) return { ok: false, ...refused, headers: CHALLENGE };
    return { ok: true, identity: { kind: "token", token } };
  };
}

/** The identity a verified access token names: its issuer and subject (the verifier's `AuthInfo.extra`). */
export function oauthIdentity(auth: AuthInfo): Identity {
  const { iss, sub } = auth.extra ?? {};
  return {
    kind: "oauth",
    issuer: typeof iss === "string" ? iss : "",
    ...(typeof sub === "string" && sub !== "" ? { subject: sub } : {}),
  };
}

/** The OAuth resource server as an `Authenticator`. */
export async function oauthAuthenticate(oauth: ResourceServer, request: Request): Promise<AuthOutcome> {
  const outcome = await oauth.authenticate(request.headers.get("authorization") ?? undefined);
  if (!outcome.refusal) return { ok: true, identity: oauthIdentity(outcome.authInfo) };
  const { status, headers, body } = outcome.refusal;
  return { ok: false, status, message: body.error_description, headers, body };
}
