/**
 * The agents part's server extension: creates the catalog service, seeds it from the disk cache
 * (synchronously, so the first `tools/list` already has the cached dedicated tools), registers
 * the `agent_<name>` tools, then refreshes the catalog in the background — at start and every
 * `WEBDATA_CATALOG_REFRESH_MS` — re-registering a dedicated tool whenever its agent appears,
 * changes or disappears (the SDK then sends `notifications/tools/list_changed`). What they list
 * is saved beside the catalog cache for the stdio fast front's next start (tool-list-writer.ts).
 */
import type { RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { defineAgentTool } from "../tools/agent-tool.js";
import type { ServerExtension, ServerHost } from "../tools/tool.js";
import type { AgentCatalog } from "./catalog.js";
import { acquireCatalog, refreshIntervalMs } from "./service.js";
import { agentToolKey } from "./tool-list-sidecar.js";
import { toolListWriter } from "./tool-list-writer.js";

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
  tools.sync();
  // The entries the stdio fast front lists on the next start (tool-list-sidecar.ts), kept by the
  // server that owns the catalog (HTTP sessions sharing it would only write the same file again).
  const sidecar =
    config.agentTools.length > 0 && held.fresh
      ? toolListWriter(host, catalog, config.agentTools, () => tools.keys())
      : undefined;
  sidecar?.schedule();
  const unsubscribe = catalog.onChange(() => {
    if (tools.sync()) sidecar?.schedule();
  });
  host.onClose(() => {
    unsubscribe();
    held.release();
  });
  // Not cancelled when this server closes: the catalog may be shared with servers still open
  // (HTTP sessions); once the last one closes it, startRefreshing ends quietly.
  if (held.fresh) afterInitialize(host, () => startRefreshing(host, catalog));
};

/** Grace after `initialized` for the client's first `tools/list` to be answered first. */
const INITIAL_REFRESH_GRACE_MS = 50;
/** Refresh anyway when no client initializes within this time (one-shot use). */
const START_BOUND_MS = 2000;

/**
 * Runs `fn` once the client finished the handshake (or after a short bound), so the catalog's
 * first fetch does not compete for the event loop with `initialize` and the first `tools/list`.
 */
function afterInitialize(host: ServerHost, fn: () => void): void {
  const low = host.server.server;
  const previous = low.oninitialized;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    setTimeout(fn, INITIAL_REFRESH_GRACE_MS).unref();
  };
  const timer = setTimeout(once, START_BOUND_MS);
  timer.unref();
  low.oninitialized = () => {
    previous?.();
    once();
  };
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
    .finally(() => catalog.startAutoRefresh(refreshIntervalMs()));
}

/** The dedicated tools, kept in step with the catalog. */
class DedicatedTools {
  private readonly registered = new Map<string, { tool: RegisteredTool; key: string }>();
  /** Names whose agent is not in the catalog (no tool). */
  private readonly absent = new Set<string>();
  private failed = false;

  constructor(
    private readonly host: ServerHost,
    private readonly catalog: AgentCatalog,
    private readonly names: readonly string[],
  ) {}

  /** Each name's key (`agentToolKey`), or undefined while a tool failed to register. */
  keys(): Map<string, string> | undefined {
    if (this.failed) return undefined;
    const keys = new Map([...this.absent].map((name) => [name, "absent"]));
    for (const [name, { key }] of this.registered) keys.set(name, key);
    return keys;
  }

  /** True when a tool was added, replaced or removed. */
  sync(): boolean {
    let changed = false;
    this.failed = false;
    for (const name of this.names) {
      const detail = this.catalog.cachedDetail(name);
      const listed = this.catalog.has(name); // undefined while the list is unknown
      const key = agentToolKey(detail, listed);
      const current = this.registered.get(name);
      if (current?.key === key || (key === "absent" && this.absent.has(name))) continue;
      changed = true;
      current?.tool.remove();
      this.registered.delete(name);
      this.absent.delete(name);
      if (key === "absent") {
        this.absent.add(name);
        this.host.log.warning(`WEBDATA_AGENT_TOOLS: no agent named "${name}" in the catalog`);
        continue;
      }
      const known =
        detail && key !== "permissive" ? { detail, compiled: this.catalog.compile(detail) } : undefined;
      if (known && known.compiled.notes.length > 0) {
        this.host.log.info(`agent ${name}: schema degraded`, { notes: known.compiled.notes });
      }
      try {
        this.registered.set(name, { tool: this.host.addTool(defineAgentTool(name, known)), key });
      } catch (e) {
        this.failed = true;
        this.host.log.error(`agent tool for "${name}" not registered: ${e instanceof Error ? e.message : e}`);
      }
    }
    return changed;
  }
}
