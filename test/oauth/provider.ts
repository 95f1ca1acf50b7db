/**
 * A real OpenID provider (`oidc-provider`, a certified implementation) on loopback for the
 * OAuth tests: dynamic client registration, authorization code + PKCE with the login and consent
 * steps answered by the test itself, client credentials, resource indicators (RFC 8707: the
 * access token's audience is the requested resource) and introspection. Also a small "browser"
 * that follows the authorization redirects with a cookie jar until the code comes back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider from "oidc-provider";

export const SERVICE_CLIENT = { id: "svc", secret: "svc-secret-0123456789abcdef0123456789" };

export interface TestProvider {
  issuer: string;
  /** Resources whose access tokens are opaque (checked by introspection); the others get JWTs. */
  opaque: Set<string>;
  /** Signs a token with the provider's own key (for claims the provider would never issue, e.g. expired). */
  sign(claims: Record<string, unknown>): Promise<string>;
  /** A client-credentials access token for `resource` with `scope`. */
  clientToken(resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

export async function startProvider(options: { scopes?: string[] } = {}): Promise<TestProvider> {
  const scopeList = options.scopes ?? ["mcp:tools", "mcp:read"];
  const resourceScopes = scopeList.join(" ");
  const opaque = new Set<string>();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `k-${Math.random().toString(36).slice(2, 8)}`;
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };

  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: SERVICE_CLIENT.id,
        client_secret: SERVICE_CLIENT.secret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys: [jwk] },
    // Resource scopes are listed too: clients (the SDK's among them) register with a `scope`.
    scopes: ["openid", "offline_access", ...scopeList],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: resourceScopes,
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: opaque.has(resource) ? "opaque" : "jwt",
          ...(opaque.has(resource) ? {} : { jwt: { sign: { alg: "RS256" } } }),
        }),
      },
    },
    pkce: { required: () => true },
    ttl: { ClientCredentials: 600, AccessToken: 600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // A client-credentials token names its client as the subject (the server refuses tokens
    // without `sub`); JWTs carry it already, introspection answers show it through this claim.
    extraTokenClaims: async (_ctx: unknown, token: { kind: string; clientId?: string }) =>
      token.kind === "ClientCredentials" ? { sub: token.clientId } : undefined,
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    // The test's own pages are the user agent; allow every origin.
    clientBasedCORS: () => true,
  } as never);

  // The login and consent steps, automated: log in as "alice" and grant what is asked.
  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const { prompt, params, session, grantId } = details;
    if (prompt.name === "login") {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: "alice" } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session?.accountId, clientId: params.client_id as string });
    if (!grant) throw new Error("grant not found");
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(" "));
    }
    const saved = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: saved } },
      { mergeWithLastSubmission: true },
    );
  }

  const callback = provider.callback();
  http.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interaction(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    opaque,
    sign: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
        .setIssuer(issuer)
        .sign(privateKey),
    async clientToken(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      if (!body.access_token) throw new Error(`token request failed: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * A user agent for the authorization step: follows redirects from `url` (carrying cookies per
 * host) until one points at `redirectUri`, and returns the `code` from it.
 */
export async function authorizeInBrowser(url: URL, redirectUri: string): Promise<string> {
  const jar = new Map<string, string>();
  let next = url;
  for (let hop = 0; hop < 20; hop += 1) {
    if (next.href.startsWith(redirectUri)) {
      const code = next.searchParams.get("code");
      if (!code) throw new Error(`authorization failed: ${next.search}`);
      return code;
    }
    const cookie = [...jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(next, { redirect: "manual", headers: cookie ? { cookie } : {} });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const eq = (pair ?? "").indexOf("=");
      if (eq > 0) jar.set((pair as string).slice(0, eq).trim(), (pair as string).slice(eq + 1).trim());
    }
    const location = response.headers.get("location");
    if (!location)
      throw new Error(
        `the authorization step stopped at ${next} with HTTP ${response.status}: ${await response.text()}`,
      );
    await response.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error("too many redirects in the authorization step");
}
