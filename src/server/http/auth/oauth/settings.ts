/**
 * OAuth resource-server settings from the configuration's OAuth variables (src/config.ts reads
 * them). Off unless `WEBDATA_OAUTH_ISSUER` is set.
 */
import type { OAuthVariables } from "../../../../config.js";

export const OAUTH_ENV = {
  issuer: "WEBDATA_OAUTH_ISSUER",
  scopes: "WEBDATA_OAUTH_SCOPES",
  introspectionUrl: "WEBDATA_OAUTH_INTROSPECTION_URL",
  clientId: "WEBDATA_OAUTH_CLIENT_ID",
  clientSecret: "WEBDATA_OAUTH_CLIENT_SECRET",
  audience: "WEBDATA_OAUTH_AUDIENCE",
  strictJwt: "WEBDATA_OAUTH_STRICT_JWT",
} as const;

export interface OAuthSettings {
  /** The authorization server's issuer identifier, exactly as it puts it in `iss`. */
  issuer: string;
  /** Scopes every token must carry (none = any token for this resource). */
  scopes: string[];
  /** RFC 7662 endpoint for opaque (non-JWT) tokens. */
  introspectionUrl?: string;
  /** The resource server's own credentials at the introspection endpoint (client_secret_basic). */
  clientId?: string;
  clientSecret?: string;
  /**
   * Audiences a token may name instead of the resource URL (Entra ID's API client id, Okta's
   * `api://default`, Cognito's app client id, which it puts in `client_id`). None by default.
   */
  audiences?: string[];
  /** Only `typ: at+jwt` JWTs (RFC 9068); by default `JWT` and no `typ` are taken too. */
  strictJwt?: boolean;
}

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a valid URL: give the full https:// address`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`${name} must be an https:// URL`);
  }
  return value;
}

/**
 * The OAuth settings, or undefined when OAuth is off. Throws a one-line message on a bad
 * combination: a static token as well, no public URL, half a client credential.
 */
export function readOAuthSettings(
  vars: OAuthVariables,
  context: { httpToken?: string; publicUrl?: unknown } = {},
): OAuthSettings | undefined {
  const issuer = blank(vars.issuer);
  const introspectionUrl = blank(vars.introspectionUrl);
  if (!issuer) {
    if (introspectionUrl) throw new Error(`${OAUTH_ENV.introspectionUrl} needs ${OAUTH_ENV.issuer} as well`);
    if (blank(vars.audience)) throw new Error(`${OAUTH_ENV.audience} needs ${OAUTH_ENV.issuer} as well`);
    if (vars.strictJwt) throw new Error(`${OAUTH_ENV.strictJwt} needs ${OAUTH_ENV.issuer} as well`);
    return undefined;
  }
  if (context.httpToken) {
    throw new Error(
      `both ${OAUTH_ENV.issuer} and a static access token (WEBDATA_HTTP_TOKEN) are set: choose one`,
    );
  }
  if (!context.publicUrl) {
    throw new Error(
      `${OAUTH_ENV.issuer} needs WEBDATA_PUBLIC_URL (the address clients use, e.g. https://mcp.example.com): tokens are checked against it`,
    );
  }
  const audiences = (blank(vars.audience) ?? "").split(/[\s,]+/).filter(Boolean);
  const scopes = (blank(vars.scopes) ?? "").split(/[\s,]+/).filter(Boolean);
  if (audiences.length > 0 && scopes.length === 0) {
    // An accepted audience is often a client id (Entra ID, Cognito): what that client's ID tokens
    // name too. Only an access token carries scopes, so a required scope keeps ID tokens out.
    throw new Error(
      `${OAUTH_ENV.audience} needs ${OAUTH_ENV.scopes} as well: an audience that is a client id is also what that client's ID tokens name, and only access tokens carry scopes`,
    );
  }
  const clientId = blank(vars.clientId);
  const clientSecret = blank(vars.clientSecret);
  if (!!clientId !== !!clientSecret) {
    throw new Error(`set both ${OAUTH_ENV.clientId} and ${OAUTH_ENV.clientSecret}, or neither`);
  }
  return {
    issuer: httpUrl(OAUTH_ENV.issuer, issuer),
    scopes,
    introspectionUrl: introspectionUrl && httpUrl(OAUTH_ENV.introspectionUrl, introspectionUrl),
    clientId,
    clientSecret,
    audiences,
    strictJwt: vars.strictJwt === true,
  };
}
