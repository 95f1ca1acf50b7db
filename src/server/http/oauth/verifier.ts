/**
 * Access-token validation for the resource server: JWTs against the issuer's JWKS (found by
 * discovery, keys cached by `jose`, an unknown `kid` refetches the set so a rotation is picked
 * up without a restart), opaque tokens by introspection (RFC 7662) when configured. The result
 * is the SDK's `AuthInfo`; a refusal is one of the SDK's OAuth errors (`InvalidTokenError` …). Tokens are never logged or forwarded.
 */

import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from "jose";
import { CachedDiscovery } from "./discovery.js";
import { Introspector } from "./introspection.js";
import type { OAuthSettings } from "./settings.js";
import { requireScopes, scopesOf, unavailable } from "./token-error.js";

export interface VerifierOptions {
  /** Minimum time between two JWKS refetches for an unknown `kid` (jose's cooldown); default 30 s. */
  jwksCooldownMs?: number;
  /** How long discovery results are kept; default 1 h. */
  discoveryTtlMs?: number;
  /** Allowed clock skew for exp/nbf, seconds; default 30. */
  clockToleranceSec?: number;
  fetch?: typeof fetch;
}

export interface TokenVerifier {
  verifyAccessToken(token: string): Promise<AuthInfo>;
}

const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

function claimMessage(error: errors.JWTClaimValidationFailed, resource: string): string {
  switch (error.claim) {
    case "aud":
      return `the token is not for this resource (its audience must be ${resource})`;
    case "nbf":
      return "the token is not valid yet (nbf)";
    default:
      return `the token's ${error.claim} claim is not acceptable: ${error.reason}`;
  }
}

export function createTokenVerifier(
  settings: OAuthSettings,
  resource: string,
  options: VerifierOptions = {},
): TokenVerifier {
  const discovery = new CachedDiscovery(settings.issuer, {
    ttlMs: options.discoveryTtlMs,
    fetch: options.fetch,
  });
  const introspector = settings.introspectionUrl
    ? new Introspector(settings, resource, options.fetch)
    : undefined;
  let jwks: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;
  const tolerance = options.clockToleranceSec ?? 30;

  async function keySet() {
    let metadata: Awaited<ReturnType<CachedDiscovery["get"]>>;
    try {
      metadata = await discovery.get();
    } catch (error) {
      throw unavailable(error);
    }
    if (!metadata.jwks_uri) {
      throw new InvalidTokenError("the authorization server publishes no jwks_uri: JWTs cannot be checked");
    }
    if (jwks?.uri !== metadata.jwks_uri) {
      jwks = {
        uri: metadata.jwks_uri,
        set: createRemoteJWKSet(new URL(metadata.jwks_uri), {
          cooldownDuration: options.jwksCooldownMs ?? 30_000,
          timeoutDuration: 10_000,
        }),
      };
    }
    return { issuer: metadata.issuer, set: jwks.set };
  }

  async function verifyJwt(token: string): Promise<AuthInfo> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw new InvalidTokenError("the token is not a readable JWT");
    }
    const { issuer, set } = await keySet();
    // Checked before the signature so that another issuer's token gets a clear answer and
    // costs no JWKS fetch for its unknown key id.
    if (unverified.iss !== issuer) {
      throw new InvalidTokenError(`the token was issued by another issuer (expected ${issuer})`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, set, {
        issuer,
        audience: [resource, `${resource}/`],
        algorithms: ASYMMETRIC,
        clockTolerance: tolerance,
        requiredClaims: ["exp"],
        // RFC 9068: a JWT access token says so, so an ID token cannot stand in for one.
        typ: "at+jwt",
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new InvalidTokenError("the token has expired");
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === "typ") {
        throw new InvalidTokenError(
          "the token is not an access token: its typ header must be at+jwt (RFC 9068); an ID token cannot call this server",
        );
      }
      if (error instanceof errors.JWTClaimValidationFailed) {
        throw new InvalidTokenError(claimMessage(error, resource));
      }
      if (error instanceof errors.JWKSNoMatchingKey) {
        throw new InvalidTokenError("the token is signed with a key the issuer does not publish");
      }
      // The key set could not be fetched (timeout, not 200, not a key set): the issuer's problem.
      if (
        error instanceof errors.JWKSTimeout ||
        error instanceof errors.JWKSInvalid ||
        !(error instanceof errors.JOSEError) ||
        error.code === "ERR_JOSE_GENERIC"
      ) {
        throw unavailable(error);
      }
      throw new InvalidTokenError(`the token's signature does not verify (${error.code})`);
    }
    const scopes = scopesOf(payload);
    requireScopes(scopes, settings.scopes);
    return {
      token,
      clientId: String(payload.client_id ?? payload.azp ?? payload.sub ?? ""),
      scopes,
      expiresAt: payload.exp,
      resource: new URL(resource),
      extra: { sub: payload.sub, iss: payload.iss },
    };
  }

  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (JWT_SHAPE.test(token)) return verifyJwt(token);
      if (introspector) return introspector.check(token);
      throw new InvalidTokenError("the token is not a JWT and no introspection endpoint is configured");
    },
  };
}
