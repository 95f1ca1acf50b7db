/**
 * RFC 7662 token introspection for opaque access tokens. Answers are cached per token (by its
 * SHA-256, never the token itself) for at most a minute and never past the token's expiry; a
 * refusal is cached for a minute too (a negative cache), so one bad token costs one call. Calls
 * to the endpoint are rate-limited (the one `RateStore` abstraction, in memory: 20/s with a
 * burst of 40, a slot now or none): beyond it a new
 * token gets 503 `temporarily_unavailable` without a call, so a flood of made-up tokens cannot
 * flood the authorization server. A token whose `token_type` says it is not an access token
 * (e.g. a refresh token) is refused.
 */
import { createHash } from "node:crypto";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { MemoryRateStore } from "../../../../api/rate-store.js";
import type { OAuthSettings } from "./settings.js";
import { requireScopes, scopesOf, unavailable } from "./token-error.js";
import { audienceProblem } from "./token-shape.js";

const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;
const RATE = { ratePerSecond: 20, burst: 40 };
const ACCESS_TOKEN_TYPES = new Set(["bearer", "access_token", "dpop", "n_a"]);

type Entry = { info: AuthInfo; until: number } | { refused: InvalidTokenError; until: number };

export interface IntrospectorOptions {
  now?: () => number;
}

export class Introspector {
  readonly #cache = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #rate: MemoryRateStore;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly resource: string,
    private readonly fetchImpl: typeof fetch = fetch,
    options: IntrospectorOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#rate = new MemoryRateStore(this.#now);
  }

  async check(token: string): Promise<AuthInfo> {
    const key = createHash("sha256").update(token).digest("base64url");
    const now = this.#now();
    const hit = this.#cache.get(key);
    if (hit && hit.until > now) {
      if ("refused" in hit) throw hit.refused;
      requireScopes(hit.info.scopes, this.settings.scopes);
      return { ...hit.info, token };
    }
    if (!this.#rate.takeNow("introspection", RATE, 0).taken)
      throw unavailable(new Error("too many tokens to introspect at once"));
    let info: AuthInfo;
    try {
      info = await this.#ask(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) this.#remember(key, { refused: error, until: now + CACHE_MS });
      throw error;
    }
    this.#remember(key, {
      info: { ...info, token: "" },
      until: Math.min(now + CACHE_MS, (info.expiresAt ?? 0) * 1000),
    });
    requireScopes(info.scopes, this.settings.scopes);
    return info;
  }

  #remember(key: string, entry: Entry): void {
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(key, entry);
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
    if (claims.active !== true) throw new InvalidTokenError("the token is not active");
    const type = typeof claims.token_type === "string" ? claims.token_type.toLowerCase() : undefined;
    if (type !== undefined && !ACCESS_TOKEN_TYPES.has(type)) {
      throw new InvalidTokenError(
        `the token is not an access token (its token_type is ${claims.token_type})`,
      );
    }
    if (typeof claims.iss === "string" && claims.iss.replace(/\/+$/, "") !== issuer.replace(/\/+$/, "")) {
      throw new InvalidTokenError(`the token was issued by another issuer (expected ${issuer})`);
    }
    const notHere = audienceProblem(claims, this.resource, this.settings.audiences ?? []);
    if (notHere) throw new InvalidTokenError(notHere);
    const exp = typeof claims.exp === "number" ? claims.exp : undefined;
    if (exp === undefined || exp * 1000 <= Date.now()) {
      throw new InvalidTokenError(exp === undefined ? "the token has no expiry" : "the token has expired");
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
