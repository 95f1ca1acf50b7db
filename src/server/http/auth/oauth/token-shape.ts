/**
 * Whether a JWT is an access token for this resource, as identity providers really issue them:
 * - the `typ` header (RFC 7515 §4.1.9: a media type, case-insensitive, `application/` optional):
 *   `at+jwt` (RFC 9068), `JWT` (Keycloak, Entra ID, Auth0 by default) or none (Okta, Cognito) are
 *   taken; anything else (`id_token`, `dpop+jwt`, `logout+jwt` …) is not an access token. With
 *   `strict` (`WEBDATA_OAUTH_STRICT_JWT=1`) only `at+jwt` is;
 * - an ID token's own marks refuse it whatever its header says: `token_use` other than `access`
 *   (Cognito), a `typ` claim other than `Bearer` (Keycloak's `ID`, `Refresh`, `Logout`), or a claim
 *   only ID tokens carry (`nonce`, `at_hash`, `c_hash`; OpenID Connect Core §2–3);
 * - the audience: `aud` names this resource (RFC 8707) or one of the operator's accepted audiences
 *   (`WEBDATA_OAUTH_AUDIENCE`: Entra ID's v2 tokens name the API's client id, Okta's default server
 *   `api://default`); a token without `aud` (Cognito's access token) is taken only when its
 *   `client_id` is one of those accepted audiences.
 */

const RFC9068 = "at+jwt";
const GENERIC = "jwt";

/** The media type in lower case without an `application/` prefix (RFC 7515 §4.1.9). */
export function normalizeTyp(typ: string): string {
  const lower = typ.trim().toLowerCase();
  return lower.startsWith("application/") && !lower.slice(12).includes("/") ? lower.slice(12) : lower;
}

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

/** Why the `typ` header is not an access token's, or undefined when it is. */
export function typProblem(typ: unknown, strict: boolean): string | undefined {
  const kind = typeof typ === "string" ? normalizeTyp(typ) : undefined;
  if (strict) {
    if (kind === RFC9068) return undefined;
    return `the token is not an access token: its typ header is ${typ === undefined ? "missing" : shown(typ)}, and this server takes at+jwt only (RFC 9068)`;
  }
  if (typ === undefined || kind === RFC9068 || kind === GENERIC) return undefined;
  return `the token is not an access token: its typ header is ${shown(typ)}; this server takes at+jwt, application/at+jwt or JWT (an ID token, a DPoP proof or a logout token cannot call it)`;
}

const ID_TOKEN_ONLY = ["nonce", "at_hash", "c_hash"] as const;

/** Why the claims are an ID token's (or another non-access token's), or undefined. */
export function idTokenMark(claims: Record<string, unknown>): string | undefined {
  let why: string | undefined;
  if (claims.token_use !== undefined && claims.token_use !== "access") {
    why = `its token_use is ${shown(claims.token_use)}`;
  } else if (typeof claims.typ === "string" && claims.typ.toLowerCase() !== "bearer") {
    why = `its typ claim is ${shown(claims.typ)}`;
  } else {
    const claim = ID_TOKEN_ONLY.find((name) => claims[name] !== undefined);
    if (claim) why = `it carries ${claim}, which only an ID token does`;
  }
  return why && `the token is not an access token (${why}); an ID token cannot call this server`;
}

const bare = (value: string) => value.replace(/\/+$/, "");

/** Why the token is not for this resource, or undefined when it is. */
export function audienceProblem(
  claims: Record<string, unknown>,
  resource: string,
  accepted: readonly string[],
): string | undefined {
  const want = new Set([resource, ...accepted].map(bare));
  const aud = claims.aud;
  const expected = `its audience must be ${resource}${accepted.length > 0 ? ` or ${accepted.join(", ")}` : ""}`;
  if (aud === undefined) {
    // Cognito's access token has no `aud`; its app client is `client_id`.
    const client = claims.client_id;
    if (typeof client === "string" && accepted.some((a) => bare(a) === bare(client))) return undefined;
    return `the token names no audience (aud) and its client_id is not an accepted audience: the token is not for this resource (${expected})`;
  }
  const list = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
  if (list.some((a) => typeof a === "string" && want.has(bare(a)))) return undefined;
  return `the token is not for this resource (${expected})`;
}
