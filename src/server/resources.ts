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
import { type Principal, principalIn } from "../principal.js";
import {
  baseUri,
  parseResourceUri,
  RESOURCE_TEMPLATES,
  readResource,
  type ToolLink,
} from "../tools/resources.js";
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
  deps: ToolDeps,
): Promise<ReadResourceResult> {
  const { uri } = request.params;
  const ref = parseResourceUri(uri);
  if (!ref) throw notFound(uri);
  const principal = principalIn(extra.authInfo);
  if (principal?.sharedKey && deps.ownership) {
    const [mine] = await deps.ownership.owned(principal.id, [linkRef(baseUri(ref))]);
    if (!mine) throw notFound(uri);
  }
  try {
    return { contents: [await readResource(uri, ref, deps.client, { signal: extra.signal })] };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.code === "not_found"))
      throw notFound(uri);
    const message = error instanceof Error ? error.message : String(error);
    throw new McpError(ErrorCode.InternalError, deps.redact(`Could not read ${uri}: ${message}`));
  }
}
