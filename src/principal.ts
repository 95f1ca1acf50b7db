/**
 * Who a call is for over HTTP: the principal every piece of state belongs to (sessions, upstream
 * work, MCP tasks, stream events) and every cap and limit counts against. Made once per request
 * by the HTTP layer's `principalOf` (src/server/http/auth/principal.ts) and passed down
 * explicitly: in the request's `RequestScope` (src/server/call-scope.ts) to the server's handlers,
 * then on the `ToolContext` (`ctx.principal`) to tools and resources. stdio has no principal (one
 * user, one process).
 */

export type PrincipalKind = "oauth" | "token" | "key" | "anonymous";

export class Principal {
  /**
   * @param id    opaque and stable across replicas (a keyed hash, never a secret): the owner of
   *              sessions and work, and the key of caps and limits
   * @param kind  how the caller was identified
   * @param keyId a keyed hash of the caller's own API key when it sent one: sessions stay bound to
   *              it, and work under it needs no ownership filter (the key's account is the caller's)
   */
  constructor(
    readonly id: string,
    readonly kind: PrincipalKind,
    readonly keyId?: string,
  ) {
    Object.freeze(this);
  }

  /** True when the caller calls the API with the server's own (shared) key. */
  get sharedKey(): boolean {
    return this.keyId === undefined;
  }

  /** What a session is bound to: the principal plus the API key it uses. */
  get credential(): string {
    return this.keyId === undefined ? this.id : `${this.id}.${this.keyId}`;
  }
}

/** A keyed hash of a credential (HMAC with the deployment's salt): stable, not reversible. */
export type CredentialHash = (credential: string) => string;
