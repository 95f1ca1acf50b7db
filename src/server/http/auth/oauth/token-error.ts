/**
 * Why a bearer token was refused, as the SDK's OAuth errors (RFC 6750 codes): `InvalidTokenError`
 * (401), `InsufficientScopeError` (403), or `TemporarilyUnavailableError` when it could not be
 * checked at all (the issuer's keys, discovery or introspection endpoint did not answer; a 503,
 * so that clients do not start a new authorization for nothing).
 */
import {
  InsufficientScopeError,
  type OAuthError,
  TemporarilyUnavailableError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";

/** The HTTP status of a refusal. */
export function statusOf(error: OAuthError): 401 | 403 | 503 {
  if (error instanceof TemporarilyUnavailableError) return 503;
  return error instanceof InsufficientScopeError ? 403 : 401;
}

/** The issuer's side did not answer: a 503 saying so. */
export function unavailable(error: unknown): TemporarilyUnavailableError {
  return new TemporarilyUnavailableError(
    `the token cannot be checked now (${error instanceof Error ? error.message : String(error)}): try again shortly`,
  );
}

/** Scopes from the `scope` claim (space-separated) or `scp` (string or array, as Entra ID and Okta send it). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === "string") return raw.split(" ").filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === "string");
  return [];
}

/** Throws `insufficient_scope` naming the missing scopes. */
export function requireScopes(granted: string[], required: string[]): void {
  const missing = required.filter((s) => !granted.includes(s));
  if (missing.length > 0) {
    throw new InsufficientScopeError(
      `the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: ask the authorization server for ${required.join(" ")}`,
    );
  }
}
