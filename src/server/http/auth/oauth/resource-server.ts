/**
 * The MCP endpoint as an OAuth 2.1 resource server (MCP authorization, 2025-11-25): the
 * protected-resource metadata (RFC 9728) at the root and path-suffixed well-known addresses, and
 * `authenticate()` turning an `Authorization` header into the SDK's `AuthInfo` or a refusal with
 * its `WWW-Authenticate` challenge (RFC 6750 §3). Transport-agnostic: no HTTP server in here.
 */

import {
  InvalidTokenError,
  OAuthError,
  TemporarilyUnavailableError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthSettings } from "./settings.js";
import { statusOf } from "./token-error.js";
import { createTokenVerifier, type TokenVerifier, type VerifierOptions } from "./verifier.js";

export const PRM_PATH = "/.well-known/oauth-protected-resource";

export interface OAuthRefusal {
  status: 401 | 403 | 503;
  headers: Record<string, string>;
  body: { error: string; error_description: string };
}

export type AuthOutcome = { authInfo: AuthInfo; refusal?: undefined } | { refusal: OAuthRefusal };

export interface ResourceServer {
  /** The resource identifier tokens must be issued for (`<public URL>/mcp`). */
  resource: string;
  /** Where the metadata is served: the root well-known path and the one suffixed with the MCP path. */
  metadataPaths: string[];
  /** The RFC 9728 document. */
  metadata(): Record<string, unknown>;
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
}

const NO_TOKEN = "this endpoint needs an OAuth access token (Authorization: Bearer …)";

/** The JSON body of a refusal: the error's RFC 6749 response object. */
const body = (error: OAuthError) => {
  const { error: code, error_description } = error.toResponseObject();
  return { error: code, error_description: error_description ?? "" };
};

const quote = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`;

export function createResourceServer(
  settings: OAuthSettings,
  options: { publicUrl: string; mcpPath: string; verifier?: TokenVerifier } & VerifierOptions,
): ResourceServer {
  const base = options.publicUrl.replace(/\/+$/, "");
  const resource = `${base}${options.mcpPath}`;
  const suffixed = `${PRM_PATH}${new URL(resource).pathname}`;
  const metadataUrl = `${new URL(base).origin}${suffixed}`;
  const verifier = options.verifier ?? createTokenVerifier(settings, resource, options);

  const challenge = (error?: OAuthError): OAuthRefusal => {
    if (error instanceof TemporarilyUnavailableError) {
      return { status: 503, headers: { "retry-after": "5" }, body: body(error) };
    }
    const params = [`resource_metadata=${quote(metadataUrl)}`];
    if (settings.scopes.length > 0) params.push(`scope=${quote(settings.scopes.join(" "))}`);
    if (error) params.push(`error=${quote(error.errorCode)}`, `error_description=${quote(error.message)}`);
    return {
      status: error ? statusOf(error) : 401,
      headers: { "www-authenticate": `Bearer ${params.join(", ")}` },
      body: body(error ?? new InvalidTokenError(NO_TOKEN)),
    };
  };

  return {
    resource,
    metadataPaths: [...new Set([PRM_PATH, suffixed])],
    metadata: () => ({
      resource,
      authorization_servers: [settings.issuer],
      ...(settings.scopes.length > 0 ? { scopes_supported: settings.scopes } : {}),
      bearer_methods_supported: ["header"],
      resource_name: "Web Data MCP",
    }),
    async authenticate(authorization) {
      const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(authorization ?? "");
      if (!match) {
        // No credentials at all: the bare challenge (RFC 6750 §3.1: no error code).
        if (!authorization) return { refusal: challenge() };
        return {
          refusal: challenge(new InvalidTokenError("the Authorization header must be 'Bearer <token>'")),
        };
      }
      try {
        return { authInfo: await verifier.verifyAccessToken(match[1] as string) };
      } catch (error) {
        if (error instanceof OAuthError) return { refusal: challenge(error) };
        throw error;
      }
    },
  };
}
