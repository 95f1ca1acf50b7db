/**
 * Authorization-server metadata by discovery (RFC 8414, then OpenID Connect Discovery), cached.
 * A failed discovery is not cached, so the next request tries again.
 */

export interface AuthServerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  [key: string]: unknown;
}

/** The discovery URLs to try, in order (RFC 8414 §3.1 path insertion, then OIDC's path append). */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  const origin = url.origin;
  const urls = [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
  return [...new Set(urls)];
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

export async function discover(
  issuer: string,
  fetchImpl: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<AuthServerMetadata> {
  const problems: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { accept: "application/json" }, signal });
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      problems.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    const doc = (await response.json().catch(() => undefined)) as AuthServerMetadata | undefined;
    if (!doc || typeof doc.issuer !== "string") {
      problems.push(`${url}: not an authorization-server metadata document`);
      continue;
    }
    // RFC 8414 §3.3: the document must name the issuer it was fetched for (a trailing slash aside).
    if (!sameIssuer(doc.issuer, issuer)) {
      throw new Error(`discovery at ${url} names issuer ${doc.issuer}, not ${issuer}`);
    }
    return doc;
  }
  throw new Error(`no authorization-server metadata for ${issuer} (${problems.join("; ")})`);
}

/** One discovery at a time, kept for `ttlMs` after it succeeds. */
export class CachedDiscovery {
  #pending: Promise<AuthServerMetadata> | undefined;
  #at = 0;

  constructor(
    readonly issuer: string,
    private readonly options: { ttlMs?: number; fetch?: typeof fetch; now?: () => number } = {},
  ) {}

  get(): Promise<AuthServerMetadata> {
    const now = (this.options.now ?? Date.now)();
    if (this.#pending && now - this.#at < (this.options.ttlMs ?? 3_600_000)) return this.#pending;
    this.#at = now;
    const pending = discover(this.issuer, this.options.fetch, AbortSignal.timeout(10_000));
    this.#pending = pending;
    pending.catch(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    return pending;
  }
}
