/**
 * The one place a request becomes a caller: its `Identity` (./authenticate.ts) and its own API
 * key, if it sent one (`x-webdata-api-key`), make the request's `Principal` (src/principal.ts).
 * Both protocol revisions' endpoints start here (`callerOf`).
 */
import { createHmac } from "node:crypto";
import { type CredentialHash, Principal } from "../../../principal.js";
import { rpcError } from "../respond.js";
import type { Identity } from "./authenticate.js";

/** A refusal of a request whose credential names no one (e.g. a token without `sub`). */
export interface PrincipalRefusal {
  status: 401;
  message: string;
  headers: Record<string, string>;
}

const NO_SUBJECT =
  "Unauthorized: the access token names no subject (sub claim): ask the authorization server for a token issued to a user or client";

/** HMAC-SHA256 of a credential with `salt`, shortened: what principals and key ids are made of. */
export function credentialHasher(salt: string | Buffer): CredentialHash {
  return (credential) =>
    createHmac("sha256", salt).update(credential, "utf8").digest("base64url").slice(0, 27);
}

/**
 * OAuth: issuer plus subject, and a token without a subject is refused; the static token: a hash
 * of the token; no authentication: a hash of the caller's own API key when it sent one, else the
 * one anonymous principal. A caller's own key never changes who it is when a token identified it:
 * caps count per principal, so a header cannot open new buckets.
 */
export function principalOf(
  identity: Identity | undefined,
  apiKey: string | undefined,
  hash: CredentialHash,
): Principal | PrincipalRefusal {
  const keyId = apiKey === undefined ? undefined : hash(`key\n${apiKey}`);
  if (!identity) {
    return keyId === undefined
      ? new Principal(hash("anonymous"), "anonymous")
      : new Principal(keyId, "key", keyId);
  }
  if (identity.kind === "token") return new Principal(hash(`token\n${identity.token}`), "token", keyId);
  if (identity.subject === undefined) {
    return {
      status: 401,
      message: NO_SUBJECT,
      headers: { "www-authenticate": 'Bearer error="invalid_token"' },
    };
  }
  return new Principal(hash(`oauth\n${identity.issuer}\n${identity.subject}`), "oauth", keyId);
}

/** Who the request is for and the API key it brought (none: the server's). */
export interface Caller {
  principal: Principal;
  apiKey?: string;
}

export interface CallerRules {
  hash: CredentialHash;
  /** The header a caller's own API key comes in, and whether the operator allows it. */
  keyHeader: { name: string; allowed: boolean };
}

const API_KEY_RE = /^[\x21-\x7e]{1,512}$/;

/** The request's caller, or the response that refuses it (a key header refused or malformed, no subject). */
export function callerOf(
  request: Request,
  identity: Identity | undefined,
  rules: CallerRules,
): Caller | Response {
  const { name, allowed } = rules.keyHeader;
  const apiKey = request.headers.get(name)?.trim() || undefined;
  if (apiKey !== undefined && !allowed) {
    // Refused rather than ignored: the caller would otherwise spend the server's key unaware.
    return rpcError(
      403,
      `Forbidden: this server calls the Web Data API with its own key and does not accept ${name}; send the request without that header (the operator allows it with WEBDATA_HTTP_ALLOW_KEY_HEADER=1)`,
    );
  }
  if (apiKey !== undefined && !API_KEY_RE.test(apiKey)) {
    return rpcError(400, `Bad Request: ${name} is not a valid API key`);
  }
  const principal = principalOf(identity, apiKey, rules.hash);
  if (!(principal instanceof Principal)) {
    return rpcError(principal.status, principal.message, { headers: principal.headers });
  }
  return { principal, ...(apiKey !== undefined ? { apiKey } : {}) };
}
