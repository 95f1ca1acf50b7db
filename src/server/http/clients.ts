/**
 * API clients of the HTTP endpoint: the configured key's shared client, and one client per API
 * key brought by callers (`X-Webdata-Api-Key`), least recently used first out past `max` — so
 * the per-key rate limiters and pools they hold stay bounded however many keys are tried. Each
 * client also holds one unconnected "anchor" server, which keeps the agent catalog that the
 * per-request servers of that client share loaded between requests, and a `ServerPool`.
 */
import type { WebDataClient } from "../../api/client.js";
import type { WebDataServer } from "../create-server.js";

/**
 * Servers of one client between requests: a request takes one (or a new one), connects it to its
 * own transport, and gives it back once answered — disconnected, so the next request, of any
 * session, starts clean — instead of building the server and loading its tools every time.
 */
export class ServerPool {
  readonly #idle: WebDataServer[] = [];
  #closed = false;

  constructor(
    private readonly make: () => WebDataServer,
    private readonly max = 16,
  ) {}

  take(): WebDataServer {
    return this.#idle.pop() ?? this.make();
  }

  /** Disconnects `server` from its transport, then keeps it for the next request (or closes it). */
  async give(server: WebDataServer): Promise<void> {
    await server.server.close().catch(() => {});
    if (!this.#closed && this.#idle.length < this.max) this.#idle.push(server);
    else await server.close();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((s) => s.close()));
  }
}

interface Entry {
  client: WebDataClient;
  anchor?: WebDataServer;
  servers: ServerPool;
  active: number;
}

export interface ClientPoolOptions {
  makeClient(apiKey: string): WebDataClient;
  makeAnchor?(client: WebDataClient, apiKey: string): WebDataServer;
  makeServer(client: WebDataClient, apiKey: string): WebDataServer;
  /** Clients of callers' own keys kept at most; default 1,000. */
  max?: number;
  onError?(message: string): void;
}

export class ClientPool {
  readonly #entries = new Map<string, Entry>();
  readonly #options: ClientPoolOptions;
  readonly #max: number;

  constructor(options: ClientPoolOptions) {
    this.#options = options;
    this.#max = options.max ?? 1_000;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The anchor server of the first client whose key `match`es. */
  anchorOf(match: (apiKey: string) => boolean): WebDataServer | undefined {
    for (const [apiKey, entry] of this.#entries) if (match(apiKey)) return entry.anchor;
    return undefined;
  }

  /** The client of `apiKey`, held until `release()`. */
  acquire(apiKey: string): { client: WebDataClient; servers: ServerPool; release(): void } {
    let entry = this.#entries.get(apiKey);
    if (entry) {
      this.#entries.delete(apiKey);
    } else {
      const client = this.#options.makeClient(apiKey);
      entry = {
        client,
        active: 0,
        servers: new ServerPool(() => this.#options.makeServer(client, apiKey)),
      };
      entry.anchor = this.#options.makeAnchor?.(client, apiKey);
      this.#evict();
    }
    this.#entries.set(apiKey, entry);
    entry.active += 1;
    const held = entry;
    let released = false;
    return {
      client: held.client,
      servers: held.servers,
      release: () => {
        if (released) return;
        released = true;
        held.active -= 1;
      },
    };
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size < this.#max) return;
      if (entry.active > 0) continue;
      this.#entries.delete(key);
      void this.#dispose(entry);
    }
  }

  async #dispose(entry: Entry): Promise<void> {
    try {
      await entry.servers.close();
      await entry.anchor?.close();
      await entry.client.close();
    } catch (error) {
      this.#options.onError?.(
        `client clean-up failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async close(): Promise<void> {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => this.#dispose(e)));
  }
}
