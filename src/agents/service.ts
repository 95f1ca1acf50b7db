/** The agent catalog service: one per client, shared by the servers using that client. */
import type { WebDataClient } from "../api/client.js";
import type { Config } from "../config.js";
import { catalogCacheLocation } from "./cache-files.js";
import { AgentCatalog } from "./catalog.js";

/** ms between background refreshes of the catalog (`WEBDATA_CATALOG_REFRESH_MS`, default 10 min). */
export const refreshIntervalMs = (config: Pick<Config, "catalogRefreshMs">): number =>
  config.catalogRefreshMs ?? 10 * 60_000;

export function createCatalog(
  config: Config,
  client: WebDataClient,
  onError?: (message: string) => void,
): AgentCatalog {
  const cache = catalogCacheLocation(config);
  return new AgentCatalog({ client, baseUrl: config.baseUrl, wanted: config.agentTools, cache, onError });
}

/**
 * Servers sharing one client (HTTP sessions without their own key) share one catalog: one
 * cache read, one background refresh, one timer. The last release closes it (and waits for it).
 */
const shared = new WeakMap<WebDataClient, { catalog: AgentCatalog; refs: number }>();

export function acquireCatalog(
  config: Config,
  client: WebDataClient,
  onError?: (message: string) => void,
): { catalog: AgentCatalog; fresh: boolean; release(): Promise<void> } {
  let entry = shared.get(client);
  const fresh = !entry;
  if (!entry) {
    entry = { catalog: createCatalog(config, client, onError), refs: 0 };
    shared.set(client, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    catalog: held.catalog,
    fresh,
    /** The last release closes the catalog and settles once its work under way has. */
    async release() {
      if (released) return;
      released = true;
      if (--held.refs === 0) {
        if (shared.get(client) === held) shared.delete(client);
        await held.catalog.close();
      }
    },
  };
}
