/**
 * Access-token validation for the resource server: JWTs against the issuer's JWKS (found by
 * discovery, keys cached by `jose`, an unknown `kid` refetches the set so a rotation is picked
 * up without a restart), opaque tokens by introspection (RFC 7662) when configured. What makes a
 * JWT an access token for this resource (its `typ`, no ID-token marks, its audience) is
 * `token-shape.ts`; here: the signature, issuer, expiry and scopes. The result
 * is the SDK's `AuthInfo`; a refusal is one of the SDK's OAuth errors (`InvalidTokenError` …). Tokens are never logged or forwarded.
 */

import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
} from "jose";
import { CachedDiscovery } from "./discovery.js";
import { Introspector } from "./introspection.js";
import type { OAuthSettings } from "./settings.js";
import { requireScopes, scopesOf, unavailable } from "./token-error.js";
import { audienceProblem, idTokenMark, typProblem } from "./token-shape.js";

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

function claimMessage(error: errors.JWTClaimValidationFailed): string {
  if (error.claim === "nbf") return "the token is not valid yet (nbf)";
  return `the token's ${error.claim} claim is not acceptable: ${error.reason}`;
}

/** The issuer's key set, found by discovery; a new `jwks_uri` makes a new remote set. */
function jwksSource(discovery: CachedDiscovery, options: VerifierOptions) {
  let jwks: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;
  return async () => {
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
  };
}

type KeySet = ReturnType<typeof jwksSource>;

/** The JWT's claims and header `typ`, before any check. */
function readUnverified(token: string): { unverified: JWTPayload; typ: unknown } {
  try {
    return { unverified: decodeJwt(token), typ: decodeProtectedHeader(token).typ };
  } catch {
    throw new InvalidTokenError("the token is not a readable JWT");
  }
}

/** The signature, issuer and expiry checked; jose's errors as the SDK's OAuth errors. */
async function verifySignature(
  token: string,
  key: Awaited<ReturnType<KeySet>>,
  tolerance: number,
): Promise<JWTPayload> {
  try {
    // The audience is checked after (`aud`, or Cognito's `client_id`), `typ` before.
    const { payload } = await jwtVerify(token, key.set, {
      issuer: key.issuer,
      algorithms: ASYMMETRIC,
      clockTolerance: tolerance,
      requiredClaims: ["exp"],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new InvalidTokenError("the token has expired");
    if (error instanceof errors.JWTClaimValidationFailed) {
      throw new InvalidTokenError(claimMessage(error));
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
}

interface JwtRules {
  settings: OAuthSettings;
  resource: string;
  tolerance: number;
  keySet: KeySet;
}

async function verifyJwt(token: string, rules: JwtRules): Promise<AuthInfo> {
  const { settings, resource } = rules;
  const { unverified, typ } = readUnverified(token);
  // The header says what kind of token it is: refused before any key is fetched.
  const notAccess = typProblem(typ, settings.strictJwt === true);
  if (notAccess) throw new InvalidTokenError(notAccess);
  const key = await rules.keySet();
  // Checked before the signature so that another issuer's token gets a clear answer and
  // costs no JWKS fetch for its unknown key id.
  if (unverified.iss !== key.issuer) {
    throw new InvalidTokenError(`the token was issued by another issuer (expected ${key.issuer})`);
  }
  const payload = await verifySignature(token, key, rules.tolerance);
  const problem = idTokenMark(payload) ?? audienceProblem(payload, resource, settings.audiences ?? []);
  if (problem) throw new InvalidTokenError(problem);
  const scopes = scopesOf(payload);
  requireScopes(scopes, settings.scopes);
  return {
    token,
    // RFC 9068 / Cognito `client_id`, OIDC `azp` (Keycloak, Auth0, Entra v2), Okta `cid`, Entra v1 `appid`.
    clientId: String(payload.client_id ?? payload.azp ?? payload.cid ?? payload.appid ?? payload.sub ?? ""),
    scopes,
    expiresAt: payload.exp,
    resource: new URL(resource),
    extra: { sub: payload.sub, iss: payload.iss },
  };
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
  const rules: JwtRules = {
    settings,
    resource,
    tolerance: options.clockToleranceSec ?? 30,
    keySet: jwksSource(discovery, options),
  };
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (JWT_SHAPE.test(token)) return verifyJwt(token, rules);
      if (introspector) return introspector.check(token);
      throw new InvalidTokenError("the token is not a JWT and no introspection endpoint is configured");
    },
  };
}
