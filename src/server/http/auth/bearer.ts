/**
 * The `Authorization: Bearer` check of the routes that need one (`/mcp`, `/metrics` beside it), on
 * hono's `bearerAuth`: it reads the header, and its `verifyToken` asks the `Authenticator` (the
 * static token, the OAuth resource server or one given to the server), whose `Identity` the
 * request then carries. Every refusal — no header, a malformed one, a token refused — is the
 * authenticator's own answer (its status, `WWW-Authenticate` and body), as it would give it alone,
 * thrown as hono's `HTTPException` (the app's error handler sends its response).
 */
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { HTTPException } from "hono/http-exception";
import { json, rpcError } from "../respond.js";
import type { Authenticator, AuthOutcome, Identity } from "./authenticate.js";

const NOT_BEARER = "Unauthorized: send Authorization: Bearer <token>";
const CHALLENGE = { "www-authenticate": "Bearer" };

type Refused = Extract<AuthOutcome, { ok: false }>;
/** The routes' hono environment: the node request and response (`@hono/node-server`), and who is calling. */
export type HttpEnv = { Bindings: HttpBindings; Variables: { identity?: Identity; refused?: Refused } };

/** A refusal as the client gets it: OAuth's `{error, error_description}` or a JSON-RPC error. */
export function refusalResponse(refused: Refused): Response {
  return refused.body === undefined
    ? rpcError(refused.status, refused.message, { headers: refused.headers })
    : json(refused.status, refused.body, refused.headers);
}

/**
 * Lets a request through with its `Identity` set (`c.get("identity")`), or answers the refusal.
 * `open`: the server asks for no credential at all (no token, no OAuth): every request passes.
 */
export function requireBearer(authenticate: Authenticator, open: boolean): MiddlewareHandler<HttpEnv> {
  // Thrown rather than returned, so hono sends it as it is (it would add a challenge of its own
  // to one without, e.g. OAuth's 503 when the issuer is down).
  const refuse = async (c: Context<HttpEnv>): Promise<never> => {
    const outcome = c.get("refused") ?? (await authenticate(c.req.raw));
    // An authenticator that accepts what hono's header check does not (no header, another
    // scheme) is not a bearer authenticator: refused all the same.
    const res = outcome.ok ? rpcError(401, NOT_BEARER, { headers: CHALLENGE }) : refusalResponse(outcome);
    throw new HTTPException(res.status as 401, { res });
  };
  const check = bearerAuth<HttpEnv>({
    verifyToken: async (_token, c) => {
      const outcome = await authenticate(c.req.raw);
      if (outcome.ok) c.set("identity", outcome.identity ?? undefined);
      else c.set("refused", outcome);
      return outcome.ok;
    },
    noAuthenticationHeader: { message: refuse },
    invalidAuthenticationHeader: { message: refuse },
    invalidToken: { message: refuse },
  });
  return open ? async (_c, next) => next() : check;
}
