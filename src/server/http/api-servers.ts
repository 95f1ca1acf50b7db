/**
 * The MCP servers behind the HTTP endpoint, by the API key they call with: the server's own key
 * (one client, its anchor server and a pool) and each caller's own key (`ClientPool`). A client's
 * anchor is the one server per client that lives between requests: it keeps the agent catalog
 * loaded and reports tool list changes (`onToolsChanged`) for the sessions of that key's scope.
 */
import type { WebDataClient, WebDataClientOptions } from "../../api/client.js";
import { ClientRuntime } from "../../api/client-runtime.js";
import type { SharedRateStore } from "../../api/rate-limiter.js";
import type { Config } from "../../config.js";
import type { Telemetry } from "../../telemetry/index.js";
import type { ToolServices } from "../../tools/tool.js";
import { clientOptionsFrom } from "../client-options.js";
import type { CreateServerOptions, WebDataServer } from "../create-server.js";
import type { FairShare } from "../fair-share.js";
import type { OwnershipStore } from "../ownership.js";
import type { TaskWork } from "../tasks.js";
import { callbackClient } from "./callback-client.js";
import type { CallbackRegistry } from "./callbacks.js";
import { ClientPool, ServerPool } from "./clients.js";

export interface ApiServersDeps {
  config: Config;
  makeServer(options: CreateServerOptions): WebDataServer;
  taskWork: TaskWork;
  ownership: OwnershipStore;
  fairShare: FairShare;
  telemetry?: Telemetry;
  /** The fleet's rate limit, shared by every replica's clients of a key (none: this process's alone). */
  rateStore?: SharedRateStore;
  /** The webhook registry, when there is a public URL. */
  callbacks?: CallbackRegistry;
  /** The tool scope of a caller's own key (`toolScope` of its principal). */
  keyScope(apiKey: string): string;
  /** An anchor's tool list changed: tell the sessions of `scope`. */
  toolsChanged(scope: string): void;
  maxClients?: number;
  log(line: string): void;
}

/** A server for one request, handed back by `release()`. */
export interface HeldServer {
  server: WebDataServer;
  release(): Promise<void>;
}

export class ApiServers {
  readonly #deps: ApiServersDeps;
  readonly #clients: ClientPool;
  /** Shared by every client made here: one rate limiter per key, one generation memory. */
  readonly #runtime = new ClientRuntime();
  #shared: { client: WebDataClient; anchor: WebDataServer; servers: ServerPool } | undefined;

  constructor(deps: ApiServersDeps) {
    this.#deps = deps;
    this.#clients = new ClientPool({
      makeClient: (apiKey) => this.#client(apiKey),
      makeAnchor: (client, apiKey) => this.#server(client, apiKey, true, true),
      makeServer: (client, apiKey) => this.#server(client, apiKey, true),
      max: deps.maxClients,
      onError: deps.log,
    });
  }

  /** Clients of callers' own keys. */
  get size(): number {
    return this.#clients.size;
  }

  /** Serves callers without a key of their own with the server's key. */
  useServerKey(apiKey: string): void {
    const client = this.#client(apiKey);
    this.#shared = {
      client,
      anchor: this.#server(client, apiKey, false, true),
      servers: new ServerPool(() => this.#server(client, apiKey, false)),
    };
  }

  /** A server for a request with `apiKey` (the caller's own) or the server's key; undefined: no key at all. */
  serverFor(apiKey: string | undefined): HeldServer | undefined {
    if (apiKey) {
      const held = this.#clients.acquire(apiKey);
      const server = held.servers.take();
      return { server, release: () => held.servers.give(server).finally(held.release) };
    }
    if (!this.#shared) return undefined;
    const { servers } = this.#shared;
    const server = servers.take();
    return { server, release: () => servers.give(server) };
  }

  /** The anchor of `scope`'s tool list (`""`: the server's key). */
  anchorOf(scope: string): WebDataServer | undefined {
    if (scope === "") return this.#shared?.anchor;
    return this.#clients.anchorOf((apiKey) => this.#deps.keyScope(apiKey) === scope);
  }

  #client(apiKey: string): WebDataClient {
    const { config, telemetry } = this.#deps;
    const options: WebDataClientOptions = {
      ...clientOptionsFrom(config, apiKey),
      runtime: this.#runtime,
      sharedRateStore: this.#deps.rateStore,
      observer: telemetry?.apiObserver,
    };
    return callbackClient(options, this.#deps.callbacks);
  }

  #server(client: WebDataClient, apiKey: string, ownKey: boolean, anchor = false): WebDataServer {
    const { config, taskWork, ownership, fairShare } = this.#deps;
    const { callbacks } = this.#deps;
    const services: ToolServices = {
      ...(callbacks ? { taskCompletion: callbacks.completion } : {}),
      ...(ownKey ? { sessionKey: true } : {}),
    };
    const scope = ownKey ? this.#deps.keyScope(apiKey) : "";
    return this.#deps.makeServer({
      config: ownKey ? { ...config, apiKey } : config,
      client,
      services,
      taskWork,
      ownership,
      fairShare,
      ...(anchor ? { onToolsChanged: () => this.#deps.toolsChanged(scope) } : {}),
    });
  }

  async close(): Promise<void> {
    await this.#clients.close();
    await this.#shared?.servers.close();
    await this.#shared?.anchor.close();
    await this.#shared?.client.close();
  }
}
