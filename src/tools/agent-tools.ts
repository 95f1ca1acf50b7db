/**
 * The dedicated `agent_<name>` tools (`WEBDATA_AGENT_TOOLS`) as a server extension: creates the
 * catalog service, seeds it from the disk cache (synchronously, so the first `tools/list` already
 * has the cached tools) and lists the tools. On a cold start (a named agent's details neither
 * cached nor fetched yet) the first `tools/list` waits for just those agents' details, at most
 * `COLD_DETAILS_MS`, so it carries their exact input schemas; a permissive schema is listed only
 * when that fails. The catalog is then refreshed in the background — once the client finished
 * the handshake, and every `WEBDATA_CATALOG_REFRESH_MS` — and the tools follow it: the client
 * gets one `tools/list_changed` when the list actually changes.
 */
import type { AgentCatalog } from "../agents/catalog.js";
import { acquireCatalog, refreshIntervalMs } from "../agents/service.js";
import { defineAgentTool } from "./agent-tool.js";
import type { ServerExtension, ServerHost, ToolDefinition } from "./tool.js";

/** How long the first `tools/list` may wait for the named agents' details on a cold start (ms). */
export const COLD_DETAILS_MS = 3000;
/** Grace after `initialized` for the client's first `tools/list` to be answered first (ms). */
const INITIAL_REFRESH_GRACE_MS = 50;
/** Refresh anyway when no client initializes within this time (one-shot use) (ms). */
const START_BOUND_MS = 2000;

export const agentsExtension: ServerExtension = (host) => {
  const { config } = host;
  if (!config.toolsets.includes("agents") && config.agentTools.length === 0) return;
  const held = acquireCatalog(config, host.client, (m) => host.log.warning(m));
  const { catalog } = held;
  host.services.agents = catalog;
  if (held.fresh) {
    try {
      if (catalog.loadCache())
        host.log.debug("agent catalog loaded from cache", { agents: catalog.list()?.length });
    } catch (e) {
      host.log.warning(`agent cache unreadable: ${String(e)}`);
    }
  }
  const tools = new DedicatedTools(host, catalog, config.agentTools);
  const missing = config.agentTools.filter(
    (name) => !catalog.cachedDetail(name) && catalog.has(name) !== false,
  );
  if (missing.length > 0) host.beforeList(fetchDetails(host, catalog, missing));
  tools.sync();
  const unsubscribe = catalog.onChange(() => tools.sync());
  host.onClose(() => {
    unsubscribe();
    return held.release();
  });
  // Not cancelled when this server closes: the catalog may be shared with servers still open
  // (HTTP sessions); once the last one closes it, startRefreshing ends quietly.
  if (held.fresh) afterInitialize(host, () => startRefreshing(host, catalog));
};

/** The named agents' details, fetched together within `COLD_DETAILS_MS`; failures are logged. */
async function fetchDetails(host: ServerHost, catalog: AgentCatalog, names: string[]): Promise<void> {
  const signal = AbortSignal.timeout(COLD_DETAILS_MS);
  const results = await Promise.allSettled(names.map((name) => catalog.detail(name, { signal })));
  results.forEach((r, i) => {
    if (r.status === "rejected") {
      const why = r.reason instanceof Error ? r.reason.message : String(r.reason);
      host.log.warning(
        `agent ${names[i]}: details not fetched at start (${why}); listed with a permissive schema`,
      );
    }
  });
}

/** Runs `fn` once the client finished the handshake (or after a short bound). */
function afterInitialize(host: ServerHost, fn: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    setTimeout(fn, INITIAL_REFRESH_GRACE_MS).unref();
  };
  const timer = setTimeout(once, START_BOUND_MS);
  timer.unref();
  host.onInitialized(once);
}

/** The first refresh, then the periodic ones. A catalog closed meanwhile ends it quietly. */
function startRefreshing(host: ServerHost, catalog: AgentCatalog): void {
  if (catalog.closed) return;
  catalog
    .refresh()
    .then(() => host.log.debug("agent catalog refreshed", { agents: catalog.list()?.length }))
    .catch((e) => {
      if (!catalog.closed)
        host.log.warning(`agent catalog refresh failed: ${e instanceof Error ? e.message : e}`);
    })
    .finally(() => catalog.startAutoRefresh(refreshIntervalMs(host.config)));
}

/** What a dedicated tool is made from: the agent's details, or that it is absent / not known yet. */
function agentToolKey(detail: unknown, listed: boolean | undefined): string {
  if (listed === false) return "absent";
  return detail ? JSON.stringify(detail) : "permissive";
}

/** The dedicated tools, kept in step with the catalog. */
class DedicatedTools {
  private readonly made = new Map<string, { tool: ToolDefinition; key: string }>();
  private readonly warned = new Set<string>();

  constructor(
    private readonly host: ServerHost,
    private readonly catalog: AgentCatalog,
    private readonly names: readonly string[],
  ) {}

  /** Rebuilds the tools whose agent changed and hands the whole group to the server at once. */
  sync(): void {
    const tools: ToolDefinition[] = [];
    for (const name of this.names) {
      const detail = this.catalog.cachedDetail(name);
      const key = agentToolKey(detail, this.catalog.has(name));
      if (key === "absent") {
        this.made.delete(name);
        if (!this.warned.has(name))
          this.host.log.warning(`WEBDATA_AGENT_TOOLS: no agent named "${name}" in the catalog`);
        this.warned.add(name);
        continue;
      }
      this.warned.delete(name);
      let current = this.made.get(name);
      if (current?.key !== key) {
        try {
          const known =
            detail && key !== "permissive" ? { detail, compiled: this.catalog.compile(detail) } : undefined;
          if (known && known.compiled.notes.length > 0)
            this.host.log.info(`agent ${name}: schema degraded`, { notes: known.compiled.notes });
          current = { tool: defineAgentTool(name, known), key };
          this.made.set(name, current);
        } catch (e) {
          this.host.log.error(`agent tool for "${name}" not made: ${e instanceof Error ? e.message : e}`);
          continue;
        }
      }
      tools.push(current.tool);
    }
    this.host.setTools("agents", tools);
  }
}
