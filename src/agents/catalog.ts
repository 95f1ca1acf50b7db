/**
 * The agent catalog: the list (`GET /v1/agents`, every page) and the details of the agents in
 * use (`GET /v1/agents/{name}`), served from memory, seeded from the disk cache at start-up and
 * refreshed in the background. Listeners hear about every change, which is how the dedicated
 * `agent_<name>` tools follow the catalog (and the client gets `tools/list_changed`).
 */
import { shareSignal } from "../api/abort.js";
import { ApiError } from "../api/errors.js";
import type { AgentDetail, AgentRecord } from "../api/schemas.js";
import { forEachLimit } from "../async/pool.js";
import { CACHE_VERSION, type CatalogSnapshot, pruneCaches, readCache, writeCache } from "./cache.js";
import { type CompiledAgent, compileAgent } from "./compile.js";

/** The two client methods the catalog needs (`WebDataClient` has both). */
export interface CatalogClient {
  listAgents(
    query?: { privacy?: "public" | "private" | "all"; managed_by?: string; limit?: number; offset?: number },
    options?: { signal?: AbortSignal },
  ): Promise<AgentRecord[]>;
  getAgent(name: string, options?: { signal?: AbortSignal }): Promise<AgentDetail>;
}

export interface CatalogOptions {
  client: CatalogClient;
  baseUrl: string;
  /** Agents whose details are fetched with every refresh (the dedicated tools). */
  wanted?: readonly string[];
  cache?: { dir: string; file: string; maxAgeMs: number };
  /** Writes a snapshot to the cache (default `writeCache`: temp file + rename). */
  writeCache?: (file: string, dir: string, snapshot: CatalogSnapshot) => Promise<void>;
  /** Parallel detail fetches (the client's rate limiter still applies). Default 8. */
  concurrency?: number;
  onError?: (message: string) => void;
}

export interface CatalogChange {
  /** Names added to or removed from the list. */
  added: string[];
  removed: string[];
  /** Names whose details changed (or appeared). */
  details: string[];
}

const PAGE = 250;
const MAX_PAGES = 200;
/** Details refreshed with the list: the wanted ones plus at most this many others in use. */
const MAX_TRACKED = 50;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `work`, or an `aborted` ApiError as soon as `signal` aborts (the shared work goes on). */
function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  // A caller that gave up leaves the shared work unobserved: its failure is not unhandled.
  work.catch(() => {});
  const aborted = () => new ApiError({ code: "aborted", message: "the call was cancelled" });
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export class AgentCatalog {
  private agents?: AgentRecord[];
  private readonly details = new Map<string, AgentDetail>();
  private readonly compiled = new Map<string, { detail: AgentDetail; compiled: CompiledAgent }>();
  private readonly listeners = new Set<(change: CatalogChange) => void>();
  private readonly abort = new AbortController();
  private inflight?: Promise<CatalogChange>;
  private timer?: NodeJS.Timeout;
  private writes: Promise<void> = Promise.resolve();
  private closing?: Promise<void>;
  private pruned = false;
  private readonly detailFetches = new Map<string, Promise<AgentDetail>>();
  fetchedAt?: number;
  source: "none" | "cache" | "network" = "none";

  constructor(private readonly options: CatalogOptions) {
    shareSignal(this.abort.signal);
  }

  /** The agent list, if known (from the cache or a fetch). */
  list(): AgentRecord[] | undefined {
    return this.agents;
  }

  has(name: string): boolean | undefined {
    return this.agents ? this.agents.some((a) => a.name === name) : undefined;
  }

  cachedDetail(name: string): AgentDetail | undefined {
    return this.details.get(name);
  }

  onChange(fn: (change: CatalogChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Seeds memory from the disk cache; true when a fresh-enough cache was found. */
  loadCache(now = Date.now()): boolean {
    const c = this.options.cache;
    if (!c) return false;
    const snap = readCache(c.file, this.options.baseUrl, c.maxAgeMs, now);
    if (!snap) return false;
    this.agents = snap.agents;
    for (const [name, d] of Object.entries(snap.details)) this.details.set(name, d);
    this.fetchedAt = snap.fetchedAt;
    this.source = "cache";
    return true;
  }

  /** The list, fetching it when not known yet (or older than `maxAgeMs`). */
  async ensureList(options: { signal?: AbortSignal; maxAgeMs?: number } = {}): Promise<AgentRecord[]> {
    const stale =
      options.maxAgeMs !== undefined &&
      this.fetchedAt !== undefined &&
      Date.now() - this.fetchedAt > options.maxAgeMs;
    if (!this.agents || stale) await this.refreshWith(options.signal);
    return this.agents ?? [];
  }

  /** Details of one agent: from memory, else fetched (and kept for the next refreshes). */
  async detail(name: string, options: { signal?: AbortSignal; fresh?: boolean } = {}): Promise<AgentDetail> {
    const known = this.details.get(name);
    if (known && !options.fresh) return known;
    const d = await untilAborted(this.fetchDetail(name), options.signal);
    const changed = !same(known, d);
    this.details.set(name, d);
    if (changed) {
      this.emit({ added: [], removed: [], details: [name] });
      void this.persist();
    }
    return d;
  }

  /** One GET per agent at a time: a tool call and the background refresh share it. */
  private fetchDetail(name: string): Promise<AgentDetail> {
    let pending = this.detailFetches.get(name);
    if (!pending) {
      pending = this.options.client
        .getAgent(name, { signal: this.abort.signal })
        .finally(() => this.detailFetches.delete(name));
      this.detailFetches.set(name, pending);
    }
    return pending;
  }

  /** The agent's params and output schemas, compiled once per version of its details. */
  compile(detail: AgentDetail): CompiledAgent {
    const hit = this.compiled.get(detail.name);
    if (hit && hit.detail === detail) return hit.compiled;
    const compiled = compileAgent(detail);
    this.compiled.set(detail.name, { detail, compiled });
    return compiled;
  }

  /** One refresh at a time; callers during a refresh share it. Rejects on a failed list fetch. */
  refresh(): Promise<CatalogChange> {
    return this.refreshWith(this.abort.signal);
  }

  private refreshWith(signal?: AbortSignal): Promise<CatalogChange> {
    if (this.abort.signal.aborted) return Promise.reject(new Error("the agent catalog is closed"));
    if (!this.inflight) {
      const s = signal ? shareSignal(AbortSignal.any([signal, this.abort.signal])) : this.abort.signal;
      this.inflight = this.doRefresh(s).finally(() => {
        this.inflight = undefined;
      });
    }
    return this.inflight;
  }

  /** True once `close()` was called: refreshes then end at once, and that is no failure. */
  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /** Refreshes every `intervalMs` in the background; errors are reported, never thrown. */
  startAutoRefresh(intervalMs: number): void {
    if (this.timer || this.closed || !(intervalMs > 0)) return;
    this.timer = setInterval(() => {
      this.refresh().catch((e) => {
        if (!this.closed) this.report(e);
      });
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * Stops the refreshes and settles when the work under way has: the refresh in flight (aborted)
   * and every cache write started before (completed), so the cache dir is left as it stays.
   */
  close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.abort.abort();
    this.listeners.clear();
    this.closing ??= (async () => {
      await this.inflight?.catch(() => {});
      await Promise.allSettled([...this.detailFetches.values()]);
      await this.writes;
    })();
    return this.closing;
  }

  private async doRefresh(signal: AbortSignal): Promise<CatalogChange> {
    const tracked = [
      ...new Set([...(this.options.wanted ?? []), ...[...this.details.keys()].slice(0, MAX_TRACKED)]),
    ];
    // The list and the details go out together.
    const [agents, fetched] = await Promise.all([this.fetchAll(signal), this.fetchDetails(tracked, signal)]);
    const before = new Map((this.agents ?? []).map((a) => [a.name, a]));
    const names = new Set(agents.map((a) => a.name));
    const change: CatalogChange = {
      added: agents.filter((a) => !before.has(a.name)).map((a) => a.name),
      removed: [...before.keys()].filter((n) => !names.has(n)),
      details: [],
    };
    const listChanged = !this.agents || !same(this.agents, agents);
    this.agents = agents;
    this.fetchedAt = Date.now();
    this.source = "network";
    for (const name of tracked) {
      const d = fetched.get(name);
      if (d === undefined) continue;
      if (d === null) {
        if (this.details.delete(name)) change.details.push(name);
      } else if (!same(this.details.get(name), d)) {
        this.details.set(name, d);
        change.details.push(name);
      }
    }
    await this.persist();
    if (listChanged || change.details.length > 0) this.emit(change);
    return change;
  }

  private async fetchAll(signal: AbortSignal): Promise<AgentRecord[]> {
    const all: AgentRecord[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const items = await this.options.client.listAgents({ limit: PAGE, offset: page * PAGE }, { signal });
      all.push(...items);
      if (items.length < PAGE) break;
    }
    return all;
  }

  /** name → details, null when the agent is gone (404), absent when the fetch failed otherwise. */
  private async fetchDetails(names: string[], signal: AbortSignal): Promise<Map<string, AgentDetail | null>> {
    const out = new Map<string, AgentDetail | null>();
    await forEachLimit(names, this.options.concurrency ?? 8, async (name) => {
      try {
        out.set(name, await untilAborted(this.fetchDetail(name), signal));
      } catch (e) {
        if ((e as { code?: string }).code === "not_found") out.set(name, null);
        else if (!signal.aborted) this.report(e, `details of agent ${name}`);
      }
    });
    return out;
  }

  /** Settles when every cache write started so far has. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Cache writes run one after another, never two at once on the same file; none once closed. */
  private persist(): Promise<void> {
    if (this.closed) return this.writes;
    this.writes = this.writes.then(() => this.write());
    return this.writes;
  }

  private async write(): Promise<void> {
    const c = this.options.cache;
    if (!c || !this.agents || this.fetchedAt === undefined) return;
    const snapshot: CatalogSnapshot = {
      version: CACHE_VERSION,
      baseUrl: this.options.baseUrl,
      fetchedAt: this.fetchedAt,
      agents: this.agents,
      details: Object.fromEntries(this.details),
    };
    try {
      await (this.options.writeCache ?? writeCache)(c.file, c.dir, snapshot);
      if (!this.pruned) {
        this.pruned = true;
        await pruneCaches(c.dir, c.file, c.maxAgeMs);
      }
    } catch (e) {
      this.report(e, "writing the agent cache");
    }
  }

  private emit(change: CatalogChange): void {
    for (const fn of this.listeners) {
      try {
        fn(change);
      } catch (e) {
        this.report(e, "a catalog listener");
      }
    }
  }

  private report(e: unknown, what = "refreshing the agent catalog"): void {
    const message = e instanceof Error ? e.message : String(e);
    this.options.onError?.(`${what} failed: ${message}`);
  }
}
