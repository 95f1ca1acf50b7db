/**
 * `ttlMs` / `cacheScope` of the 2026-07-28 cacheable results, from how this server's lists
 * actually change:
 * - the registry's tools change only with a new release or configuration (a restart): a long
 *   TTL, and the same list for every caller (`public`);
 * - agent tools (`WEBDATA_AGENT_TOOLS`) come from the agent catalog, re-read every
 *   `WEBDATA_CATALOG_REFRESH_MS`: the list may change at each refresh, so the TTL is that interval
 *   (a change in between also reaches `subscriptions/listen` streams as `tools/list_changed`);
 *   under a caller's own API key the catalog is that key's: `private`;
 * - a `webdata://` read returns a task's or crawl's state as it is now: never cached, `private`
 *   (links belong to the principal whose call returned them).
 */
import type { CacheHint } from "@modelcontextprotocol/server";
import { refreshIntervalMs } from "../../agents/service.js";
import type { Config } from "../../config.js";

/** How long a list fixed until the next release or restart may be cached (ms). */
export const STATIC_TTL_MS = 60 * 60_000;

export interface CachePolicy {
  /** The request's tools come from an agent catalog (agent tools configured). */
  catalog: boolean;
  /** The catalog is the caller's own API key's (else the server's, shared by every caller). */
  ownKey: boolean;
  /** ms between catalog refreshes. */
  refreshMs: number;
}

export function cachePolicy(config: Config, ownKey: boolean): CachePolicy {
  return { catalog: config.agentTools.length > 0, ownKey, refreshMs: refreshIntervalMs(config) };
}

type Cacheable =
  | "tools/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"
  | "server/discover";

export function cacheHints(policy: CachePolicy): Partial<Record<Cacheable, CacheHint>> {
  const fixed: CacheHint = { ttlMs: STATIC_TTL_MS, cacheScope: "public" };
  const tools: CacheHint = policy.catalog
    ? { ttlMs: policy.refreshMs, cacheScope: policy.ownKey ? "private" : "public" }
    : fixed;
  return {
    "tools/list": tools,
    "resources/list": fixed,
    "resources/templates/list": fixed,
    "resources/read": { ttlMs: 0, cacheScope: "private" },
    "server/discover": fixed,
  };
}
