/**
 * `createServer()`: one MCP server (name `web-data`) with the configured toolsets, logging and
 * MCP tasks, not yet connected. It is the SDK's low-level `Server`: this module owns `tools/list`
 * (one pure `listTools`) and `tools/call` (./call-tool.ts) through `setRequestHandler`, so every
 * message is parsed by the SDK's own schemas first. A transport is plugged in by the caller:
 *   const { server } = createServer({ config }); await server.connect(transport);
 * Several servers (e.g. one per HTTP session) may share one `WebDataClient` by passing `client`,
 * and one task store (e.g. a Redis-backed one shared by replicas) by passing `taskStore`.
 *
 * Start-up: what `initialize` and `tools/list` do not need (the API client and undici, the tool
 * handlers, the agent catalog, argument and result checks: ./runtime.ts) is loaded in the
 * background. Until it is, `tools/list` answers from the build-time list (`dist/tool-list.json`,
 * written by scripts/tool-list.mjs from the same `listTools`) when the configuration needs nothing
 * else (no `WEBDATA_AGENT_TOOLS`, the registry's own tools); a call waits for the load.
 */
import { readFileSync } from "node:fs";
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  type TaskMessageQueue,
  type TaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { WebDataClient } from "../api/client.js";
import type { ApiObserver } from "../api/observer.js";
import { makeRedactor } from "../api/redact.js";
import { type Config, configSecrets } from "../config.js";
import type { ServerExtension, ToolDefinition, ToolServices } from "../tools/tool.js";
import { exposesTool, isToolset } from "../toolsets.js";
import { CallRequestSchema } from "./call-request.js";
import { RequestScopes } from "./call-scope.js";
import type { FairShare } from "./fair-share.js";
import { INSTRUCTIONS } from "./instructions.js";
import { NoElicitationValidator } from "./json-schema-validator.js";
import { createLogger, type ServerLogger } from "./logging.js";
import type { OwnershipStore } from "./ownership.js";
import type { Runtime } from "./runtime.js";
import { TaskWork } from "./tasks.js";
import { SERVER_NAME, VERSION } from "./version.js";

export interface CreateServerOptions {
  config: Config;
  /** Shared client; when absent the server makes one and closes it on `close()`. */
  client?: WebDataClient;
  /** Given to the client the server makes (telemetry); unused with `client`. */
  observer?: ApiObserver;
  /** A logger of the caller's; it must redact secrets itself. */
  logger?: ServerLogger;
  /** Lowest level the server's own logger writes to stderr (default info). */
  stderrLevel?: LoggingLevel;
  /** Defaults to the registry filtered by the config's toolsets. */
  tools?: readonly ToolDefinition[];
  /** Defaults to the registry's `SERVER_EXTENSIONS`. */
  extensions?: readonly ServerExtension[];
  services?: ToolServices;
  /** Where MCP tasks are kept (the SDK's public interface); default: in memory, this server only. */
  taskStore?: TaskStore;
  /**
   * Task work shared by several servers — the HTTP layer makes one server per request, and a
   * task's work outlives the request that started it; not closed by `close()`. Wraps its own store
   * (`taskStore` is then ignored).
   */
  taskWork?: TaskWork;
  /** Over HTTP: who started which upstream work (calls under the shared key see only their own). */
  ownership?: OwnershipStore;
  /** Over HTTP: per-principal slots for long calls and tasks (one principal's burst waits in its own queue). */
  fairShare?: FairShare;
  /** Queue of task-related messages; default: in memory. */
  taskMessageQueue?: TaskMessageQueue;
  /**
   * Resumability store for a Streamable HTTP transport; the server keeps it for the HTTP layer
   * (`WebDataServer.eventStore`), which passes it to the transport it makes.
   */
  eventStore?: EventStore;
  /**
   * Called whenever the listed tools change after they were first loaded, whether or not a client
   * is connected (the HTTP layer tells its sessions' standalone streams).
   */
  onToolsChanged?: () => void;
}

export interface WebDataServer {
  server: Server;
  services: ToolServices;
  logger: ServerLogger;
  /** The tools `tools/list` shows right now, by name (filled once the tools are loaded). */
  tools: ReadonlyMap<string, ToolDefinition>;
  /** The scopes of the requests it serves: the HTTP layer enters each request's (`RequestScopes.enter`). */
  scopes: RequestScopes;
  eventStore?: EventStore;
  /** Settles when the tools are loaded and every extension's start-up work has (errors are logged). */
  ready: Promise<void>;
  /** The loaded tools and their runner, revision-neutral (the 2026-07-28 path serves from it). */
  runtime(): Promise<Runtime>;
  /** The tools as `tools/list` answers them now (the build-time list until the tools are loaded). */
  listTools(): Promise<Tool[]>;
  close(): Promise<void>;
}

/** The build-time list (dist/tool-list.json) for this configuration, when it is there and current. */
function buildTimeList(config: Config): Tool[] | undefined {
  for (const rel of ["./tool-list.json", "../tool-list.json"]) {
    let file: { version?: unknown; tools?: Array<{ toolset: string; optIn?: boolean; tool: Tool }> };
    try {
      file = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8"));
    } catch {
      continue;
    }
    if (file.version !== VERSION || !Array.isArray(file.tools)) return undefined;
    return file.tools
      .filter(
        (t) =>
          isToolset(t.toolset) &&
          exposesTool(config, {
            toolset: t.toolset,
            readOnly: t.tool.annotations?.readOnlyHint === true,
            optIn: t.optIn,
          }),
      )
      .map((t) => t.tool);
  }
  return undefined;
}

/**
 * When a server with a build-time list loads its tools if no call has yet, counted from the
 * handshake's end or the first tools/list, whichever comes first (ms).
 */
const WARM_AFTER_MS = 200;

/** The SDK's low-level `Server` with our capabilities and task store. */
function sdkServer(options: CreateServerOptions, work: TaskWork): Server {
  return new Server(
    { name: SERVER_NAME, title: "Web Data", version: VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: {},
        logging: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: work,
      taskMessageQueue: options.taskMessageQueue ?? new InMemoryTaskMessageQueue(),
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: new NoElicitationValidator(),
    },
  );
}

/**
 * `tools/list_changed` bookkeeping: the list as last answered and whether the client has been told
 * it changed since (one notification per change it has not yet re-read; none before it listed at
 * all), and `onToolsChanged` for every change whether or not a client is connected.
 */
function listChanges(server: Server, current: () => unknown, onToolsChanged?: () => void) {
  /** Serialised only when a change is checked: not on the handshake's path. */
  let answered: Tool[] | undefined;
  let notified = false;
  /** The list `onToolsChanged` last saw. */
  let seen: string | undefined;
  const watch = (json: string) => {
    if (!onToolsChanged) return;
    if (seen !== undefined && json !== seen) onToolsChanged();
    seen = json;
  };
  return {
    changed() {
      const now = current();
      if (!now) return;
      const json = JSON.stringify(now);
      watch(json);
      if (answered === undefined || notified || !server.transport) return;
      if (json === JSON.stringify(answered)) return;
      notified = true;
      server.sendToolListChanged().catch(() => {});
    },
    answered(tools: Tool[]) {
      answered = tools;
      notified = false;
    },
  };
}

/** The handshake's end: runs what waits for it, and `warm` once (the tools load shortly after). */
function handshake(server: Server, warm: () => void) {
  const waiting: Array<() => void> = [];
  let done = false;
  server.oninitialized = () => {
    done = true;
    // Not earlier: loading the tools takes CPU the handshake and the first tools/list need
    // (the build-time list answers without them; the first call waits for them).
    warm();
    for (const fn of waiting.splice(0)) fn();
  };
  // The tools may load after the handshake: then it has happened already.
  return (fn: () => void) => (done ? queueMicrotask(fn) : void waiting.push(fn));
}

/** What a server is made of before its tools load; `loadRuntime` builds the rest from it. */
interface Parts {
  options: CreateServerOptions;
  server: Server;
  logger: ServerLogger;
  redact: (text: string) => string;
  work: TaskWork;
  services: ToolServices;
  tools: Map<string, ToolDefinition>;
  /** The build-time list, when this configuration answers from it until the tools load. */
  prelisted?: Tool[];
  gates: Promise<unknown>[];
  closers: Array<() => void | Promise<void>>;
  changed(): void;
  onInitialized(fn: () => void): void;
}

/** Loads the tools and their runner (a dynamic import: off the start-up path). */
async function loadRuntime(parts: Parts): Promise<Runtime> {
  const { options } = parts;
  try {
    const { startRuntime } = await import("./runtime.js");
    return startRuntime({
      config: options.config,
      client: options.client,
      observer: options.observer,
      tools: options.tools,
      extensions: options.extensions,
      prelisted: parts.prelisted,
      services: parts.services,
      logger: parts.logger,
      redact: parts.redact,
      work: parts.work,
      ownership: options.ownership,
      fairShare: options.fairShare,
      toolMap: parts.tools,
      changed: parts.changed,
      beforeList: (promise) => void parts.gates.push(promise),
      onInitialized: parts.onInitialized,
      onClose: (fn) => void parts.closers.push(fn),
    });
  } catch (error) {
    parts.logger.error(`server tools failed to load: ${String(error)}`);
    throw error;
  }
}

/**
 * `tools/call` and `resources/*`, each in the scope of the request that carries it (`scopes.of`:
 * over HTTP the `RequestScope` the endpoint entered; none on stdio).
 */
function handleCalls(parts: Parts, scopes: RequestScopes, runtime: () => Promise<Runtime>): void {
  const { server, logger } = parts;
  server.setRequestHandler(CallRequestSchema, async (request, extra) => {
    const scope = scopes.of(extra);
    // Bound now, to this request's transport: the call's work may outlive the request.
    const log = logger.forCall(server, extra.requestId);
    return (await runtime()).call(request, extra, scope, log);
  });
  // webdata:// links tools return (./resources.ts): none listed, the templates shown, each read by id.
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => (await runtime()).templates());
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const scope = scopes.of(extra);
    return (await runtime()).read(request, extra, scope);
  });
}

/** `close()`: settles once the server's background work has (see the module comment). */
function closer(
  parts: Parts,
  ownStore: InMemoryTaskStore | undefined,
  runtime: () => Promise<Runtime> | undefined,
  detach: () => void,
) {
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= (async () => {
      if (!parts.options.taskWork) parts.work.close();
      ownStore?.cleanup();
      const rt = await runtime()?.catch(() => undefined);
      // Every extension has registered its clean-up; each settles once its work has (catalog
      // refreshes, cache writes), so nothing the server started is still writing after close.
      await rt?.ready;
      for (const fn of parts.closers) await Promise.resolve(fn()).catch(() => {});
      detach();
      await parts.server.close().catch(() => {});
      await rt?.close();
    })();
    return closed;
  };
}

/**
 * The tools and their runner, loaded on first need (a call, a list the build-time one cannot
 * answer, `ready`) or `warmSoon` after the handshake; `changed` once they are, in case the
 * build-time list was answered and the loaded one differs.
 */
function toolLoader(load: () => Promise<Runtime>, changed: () => void) {
  let loaded: Runtime | undefined;
  let promise: Promise<Runtime> | undefined;
  let warm: NodeJS.Timeout | undefined;
  const runtime = (): Promise<Runtime> =>
    (promise ??= load().then((rt) => {
      loaded = rt;
      queueMicrotask(changed);
      return rt;
    }));
  return {
    runtime,
    loaded: () => loaded,
    started: () => promise,
    warmSoon() {
      warm ??= setTimeout(() => void runtime().catch(() => {}), WARM_AFTER_MS).unref();
    },
    stop: () => clearTimeout(warm),
  };
}

type ToolLoader = ReturnType<typeof toolLoader>;

/** `tools/list`: the build-time list until the tools are loaded, when it can answer; else the loaded one. */
function toolLister(loader: ToolLoader, prelisted: Tool[] | undefined, gates: Promise<unknown>[]) {
  return async (): Promise<Tool[]> => {
    if (!loader.loaded() && prelisted) {
      // Answered from the build-time list: the tools load shortly after, not while the client is
      // still reading this answer (a call in the meantime loads them at once).
      loader.warmSoon();
      return prelisted;
    }
    const rt = await loader.runtime();
    if (gates.length > 0) await Promise.allSettled(gates);
    return rt.listed() as Tool[];
  };
}

export function createServer(options: CreateServerOptions): WebDataServer {
  const { config } = options;
  const redact = makeRedactor(configSecrets(config));
  const logger = options.logger ?? createLogger({ redact, stderrLevel: options.stderrLevel });
  const ownStore = options.taskStore || options.taskWork ? undefined : new InMemoryTaskStore();
  const work = options.taskWork ?? new TaskWork(options.taskStore ?? (ownStore as InMemoryTaskStore));
  const server = sdkServer(options, work);
  const detachLogger = logger.attach(server);
  const scopes = new RequestScopes();
  const prelisted =
    options.tools || options.extensions || config.agentTools.length > 0 ? undefined : buildTimeList(config);
  const parts: Parts = {
    options,
    server,
    logger,
    redact,
    work,
    services: options.services ?? {},
    tools: new Map(),
    prelisted,
    gates: [],
    closers: [],
    changed: () => changes.changed(),
    onInitialized: handshake(server, () => loader.warmSoon()),
  };
  const loader = toolLoader(() => loadRuntime(parts), parts.changed);
  const changes = listChanges(server, () => loader.loaded()?.listed(), options.onToolsChanged);
  // Without a build-time list the first tools/list needs them: start at once. With one, once the
  // client has had it (or shortly after the handshake, for a client that does not ask), so they
  // are warm for the first call without slowing the handshake.
  if (!prelisted) void loader.runtime().catch(() => {});
  const listNow = toolLister(loader, prelisted, parts.gates);
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await listNow();
    changes.answered(tools);
    return { tools };
  });
  handleCalls(parts, scopes, loader.runtime);
  const close = closer(parts, ownStore, loader.started, detachLogger);
  let ready: Promise<void> | undefined;
  return {
    server,
    services: parts.services,
    logger,
    tools: parts.tools,
    scopes,
    eventStore: options.eventStore,
    get ready() {
      ready ??= loader.runtime().then((rt) => rt.ready);
      return ready;
    },
    runtime: loader.runtime,
    listTools: listNow,
    close: () => {
      loader.stop();
      return close();
    },
  };
}
