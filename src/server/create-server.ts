/**
 * `createServer()`: one MCP server (name `web-data`) with the configured toolsets, logging and
 * MCP tasks, not yet connected. It is the SDK's low-level `Server`: this module owns `tools/list`
 * (one pure `listTools`) and `tools/call` (./call-tool.ts) through `setRequestHandler`, so every
 * message is parsed by the SDK's own schemas first. A transport is plugged in by the caller:
 *   const { server } = createServer({ config }); await server.connect(transport);
 * Several servers (e.g. one per HTTP session) may share one `WebDataClient` by passing `client`,
 * and one task store (e.g. a Redis-backed one shared by replicas) by passing `taskStore`.
 */
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  type TaskMessageQueue,
  type TaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema, type LoggingLevel, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { WebDataClient } from "../api/client.js";
import type { ApiObserver } from "../api/observer.js";
import { makeRedactor } from "../api/redact.js";
import { type Config, configSecrets } from "../config.js";
import { SERVER_EXTENSIONS, selectTools } from "../tools/registry.js";
import type { ServerExtension, ServerHost, ToolDefinition, ToolServices } from "../tools/tool.js";
import { CallRequestSchema, callTool } from "./call-tool.js";
import { listTools } from "./list-tools.js";
import { createLogger, type ServerLogger } from "./logging.js";
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
  /** Queue of task-related messages; default: in memory. */
  taskMessageQueue?: TaskMessageQueue;
  /**
   * Resumability store for a Streamable HTTP transport; the server keeps it for the HTTP layer
   * (`WebDataServer.eventStore`), which passes it to the transport it makes.
   */
  eventStore?: EventStore;
}

export interface WebDataServer {
  server: Server;
  client: WebDataClient;
  services: ToolServices;
  logger: ServerLogger;
  /** The tools `tools/list` shows right now, by name (static and added by extensions). */
  tools: ReadonlyMap<string, ToolDefinition>;
  eventStore?: EventStore;
  /** Settles when every extension's start-up work has (errors are logged, never thrown). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const INSTRUCTIONS =
  "Web data tools: search engines (serp_search), page content as Markdown (extract_page, extract_batch), " +
  "site map and crawl, pre-built extraction agents and templates. Long work returns a handle when it " +
  "runs past the wait limit: continue it with get_task using the ids given.";

export function createServer(options: CreateServerOptions): WebDataServer {
  const { config } = options;
  const redact = makeRedactor(configSecrets(config));
  const logger = options.logger ?? createLogger({ redact, stderrLevel: options.stderrLevel });
  const ownsClient = !options.client;
  const client =
    options.client ??
    new WebDataClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      legacyBaseUrl: config.legacyBaseUrl,
      legacyAuth: config.legacyAuth,
      maxRps: config.maxRps,
      observer: options.observer,
    });
  const ownStore = options.taskStore || options.taskWork ? undefined : new InMemoryTaskStore();
  const work = options.taskWork ?? new TaskWork(options.taskStore ?? (ownStore as InMemoryTaskStore));
  const server = new Server(
    { name: SERVER_NAME, title: "Web Data", version: VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: work,
      taskMessageQueue: options.taskMessageQueue ?? new InMemoryTaskMessageQueue(),
      instructions: INSTRUCTIONS,
    },
  );
  const detachLogger = logger.attach(server);
  const services: ToolServices = options.services ?? {};
  const deps = { config, client, services, log: logger, redact, work };

  const staticTools = options.tools ?? selectTools(config);
  const groups = new Map<string, readonly ToolDefinition[]>();
  const tools = new Map<string, ToolDefinition>();
  let listed: Tool[] = [];
  const rebuild = () => {
    tools.clear();
    for (const tool of [...staticTools, ...[...groups.values()].flat()]) tools.set(tool.name, tool);
    listed = listTools(tools.values());
  };
  rebuild();

  const gates: Promise<unknown>[] = [];
  /** The list as last answered, and whether the client has been told it changed since. */
  let answered: string | undefined;
  let notified = false;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (gates.length > 0) await Promise.allSettled(gates);
    answered = JSON.stringify(listed);
    notified = false;
    return { tools: listed };
  });
  server.setRequestHandler(CallRequestSchema, (request, extra) =>
    callTool(request, extra, tools.get(request.params.name), deps),
  );

  const initialized: Array<() => void> = [];
  server.oninitialized = () => {
    for (const fn of initialized.splice(0)) fn();
  };
  const closers: Array<() => void | Promise<void>> = [];
  const host: ServerHost = {
    config,
    client,
    services,
    log: logger,
    setTools(group, defined) {
      groups.set(group, defined);
      rebuild();
      // One notification per change the client has not yet re-read; none before it listed at all.
      if (answered === undefined || notified || !server.transport) return;
      if (JSON.stringify(listed) === answered) return;
      notified = true;
      server.sendToolListChanged().catch(() => {});
    },
    beforeList: (promise) => void gates.push(promise),
    onInitialized: (fn) => void initialized.push(fn),
    onClose: (fn) => void closers.push(fn),
  };
  const ready = Promise.all(
    (options.extensions ?? SERVER_EXTENSIONS).map(async (extension) => {
      try {
        await extension(host);
      } catch (error) {
        logger.error(`server extension failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  ).then(() => undefined);

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      if (!options.taskWork) work.close();
      ownStore?.cleanup();
      for (const fn of closers) await Promise.resolve(fn()).catch(() => {});
      detachLogger();
      await server.close().catch(() => {});
      if (ownsClient) await client.close();
    })();
    return closed;
  };
  return { server, client, services, logger, tools, eventStore: options.eventStore, ready, close };
}
