/**
 * `resources/*` for the `webdata://` links tools hand out (src/tools/resources.ts). Over HTTP
 * under the shared key a link belongs to the principal whose call returned it (claimed in the
 * ownership store, so every replica knows); reading another principal's link, an id upstream does
 * not know or a URI that is not ours all answer the same "Resource not found". `resources/list`
 * lists nothing (links are per call and bulky); `resources/templates/list` shows the templates.
 */
import type { ReadResourceRequest, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../api/errors.js";
import type { Principal } from "../principal.js";
import {
  baseUri,
  parseResourceUri,
  RESOURCE_TEMPLATES,
  readResource,
  type ToolLink,
} from "../tools/resources.js";
import type { RequestScope } from "./call-scope.js";
import type { OwnershipStore, WorkRef } from "./ownership.js";
import type { Extra, ToolDeps } from "./run-tool.js";

/** The MCP error code for an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;

const notFound = (uri: string) => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);

const linkRef = (uri: string): WorkRef => ({ kind: "link", id: uri });

/** Under the shared key, the links a call returned become its principal's. */
export async function claimLinks(
  links: readonly ToolLink[] | undefined,
  principal: Principal | undefined,
  ownership: OwnershipStore | undefined,
): Promise<void> {
  if (!links?.length || !principal?.sharedKey || !ownership) return;
  await ownership.claim(
    principal.id,
    links.map((l) => linkRef(l.uri)),
  );
}

export function resourceTemplates() {
  return { resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({ ...t })) };
}

export async function readResourceRequest(
  request: Pick<ReadResourceRequest, "params">,
  extra: Extra,
  scope: RequestScope | undefined,
  deps: ToolDeps,
): Promise<ReadResourceResult> {
  const { uri } = request.params;
  const read = await readFor(uri, { principal: scope?.principal, signal: extra.signal }, deps);
  if (read.ok) return { contents: read.contents };
  throw read.missing ? notFound(uri) : new McpError(ErrorCode.InternalError, read.message);
}

/** What reading a link gives, whichever revision asked: its contents, "not found", or a failure. */
export type ReadOutcome =
  | { ok: true; contents: ReadResourceResult["contents"] }
  | { ok: false; missing: true }
  | { ok: false; missing: false; message: string };

/** Reads one `webdata://` link for `scope`'s principal (another principal's link is "not found"). */
export async function readFor(
  uri: string,
  scope: { principal?: Principal; signal: AbortSignal },
  deps: ToolDeps,
): Promise<ReadOutcome> {
  const ref = parseResourceUri(uri);
  if (!ref) return { ok: false, missing: true };
  const { principal } = scope;
  if (principal?.sharedKey && deps.ownership) {
    const [mine] = await deps.ownership.owned(principal.id, [linkRef(baseUri(ref))]);
    if (!mine) return { ok: false, missing: true };
  }
  try {
    return { ok: true, contents: [await readResource(uri, ref, deps.client, { signal: scope.signal })] };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.code === "not_found"))
      return { ok: false, missing: true };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, missing: false, message: deps.redact(`Could not read ${uri}: ${message}`) };
  }
}
