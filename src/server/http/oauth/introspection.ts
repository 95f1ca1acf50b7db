/**
 * RFC 7662 token introspection for opaque access tokens. Answers are cached per token (by its
 * SHA-256, never the token itself) for at most a minute and never past the token's expiry.
 */
import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthSettings } from "./settings.js";
import { audienceMatches, requireScopes, scopesOf, TokenError, unavailable } from "./token-error.js";

const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

interface Entry {
  info: AuthInfo;
  until: number;
}

export class Introspector {
  readonly #cache = new Map<string, Entry>();

  constructor(
    private readonly settings: OAuthSettings,
    private readonly resource: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async check(token: string): Promise<AuthInfo> {
    const key = createHash("sha256").update(token).digest("base64url");
    const now = Date.now();
    const hit = this.#cache.get(key);
    if (hit && hit.until > now) {
      requireScopes(hit.info.scopes, this.settings.scopes);
      return { ...hit.info, token };
    }
    const info = await this.#ask(token);
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    const until = Math.min(now + CACHE_MS, (info.expiresAt ?? 0) * 1000);
    this.#cache.set(key, { info: { ...info, token: "" }, until });
    requireScopes(info.scopes, this.settings.scopes);
    return info;
  }

  async #ask(token: string): Promise<AuthInfo> {
    const { introspectionUrl, clientId, clientSecret, issuer } = this.settings;
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    if (clientId && clientSecret) {
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    }
    let claims: Record<string, unknown>;
    try {
      const response = await this.fetchImpl(introspectionUrl as string, {
        method: "POST",
        headers,
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`the introspection endpoint answered HTTP ${response.status}`);
      }
      claims = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw unavailable(error);
    }
    if (claims.active !== true) throw new TokenError("invalid_token", "the token is not active");
    if (typeof claims.iss === "string" && claims.iss.replace(/\/+$/, "") !== issuer.replace(/\/+$/, "")) {
      throw new TokenError("invalid_token", `the token was issued by another issuer (expected ${issuer})`);
    }
    if (!audienceMatches(claims.aud, this.resource)) {
      throw new TokenError(
        "invalid_token",
        `the token is not for this resource (its audience must be ${this.resource})`,
      );
    }
    const exp = typeof claims.exp === "number" ? claims.exp : undefined;
    if (exp === undefined || exp * 1000 <= Date.now()) {
      throw new TokenError(
        "invalid_token",
        exp === undefined ? "the token has no expiry" : "the token has expired",
      );
    }
    return {
      token,
      clientId: String(claims.client_id ?? claims.sub ?? ""),
      scopes: scopesOf(claims),
      expiresAt: exp,
      resource: new URL(this.resource),
      extra: { sub: claims.sub, iss: claims.iss },
    };
  }
}
