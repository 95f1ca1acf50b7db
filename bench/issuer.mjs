// A minimal OAuth authorization server for the attack bench: metadata at
// /.well-known/oauth-authorization-server, its signing key at /jwks, and RFC 9068 access tokens
// (`typ: at+jwt`) signed for any subject the bench names. The server under test checks them as it
// checks a real provider's (discovery, JWKS, issuer, audience, expiry); the OAuth tests use a
// certified provider (test/oauth/provider.ts) for the flows themselves.
import { createServer } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "bench", alg: "RS256", use: "sig" };
  const server = createServer((req, res) => {
    const body =
      req.url === "/jwks"
        ? { keys: [jwk] }
        : req.url === "/.well-known/oauth-authorization-server"
          ? { issuer, jwks_uri: `${issuer}/jwks`, response_types_supported: ["code"] }
          : undefined;
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { error: "not found" }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  return {
    issuer,
    /** An access token for `subject` at `resource` (the server's `<public URL>/mcp`), valid 1 h. */
    token: (subject, resource) =>
      new SignJWT({ scope: "mcp:tools" })
        .setProtectedHeader({ alg: "RS256", kid: "bench", typ: "at+jwt" })
        .setIssuer(issuer)
        .setSubject(subject)
        .setAudience(resource)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
