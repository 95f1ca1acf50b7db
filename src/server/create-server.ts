/**
 * `createServer()`: one MCP server (name `web-data`) with the configured toolsets, logging and
 * MCP tasks, not yet connected. A transport is plugged in by the caller:
 *   const { server } = createServer({ config }); await server.connect(transport);
 * Several servers (e.g. one per HTTP session) may share one `WebDataClient` by passing `client`.
 */
import { InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { WebDataClient } from "../api/client.js";
import { type Config, configSecrets } from "../config.js";
import { SERVER_EXTENSIONS, selectTools } from "../tools/registry.js";
import type { ServerExtension, ServerHost, ToolDefinition, ToolServices } from "../tools/tool.js";
import { createLogger, type ServerLogger } from "./logging.js";
import { makeRedactor } from "./redactor.js";
import { registerDefinedTool } from "./register-tools.js";
import { ToolTaskStore } from "./tasks.js";
import { installToolCalls } from "./tool-call.js";
import { installToolListCache } from "./tool-list.js";
import { SERVER_NAME, VERSION } from "./version.js";

export interface CreateServerOptions {
  config: Config;
  /** Shared client; when absent the server makes one and closes it on `close()`. */
  client?: WebDataClient;
  /** A logger of the caller's; it must redact secrets itself. */
  logger?: ServerLogger;
  /** Lowest level the server's own logger writes to stderr (default info). */
  stderrLevel?: LoggingLevel;
  /** Defaults to the registry filtered by the config's toolsets. */
  tools?: readonly ToolDefinition[];
  /** Defaults to the registry's `SERVER_EXTENSIONS`. */
  extensions?: readonly ServerExtension[];
  services?: ToolServices;
}

export interface WebDataServer {
  server: McpServer;
  client: WebDataClient;
  services: ToolServices;
  logger: ServerLogger;
  /** Registered tools by name (static and added by extensions). */
  tools: Map<string, RegisteredTool>;
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
  const secrets = configSecrets(config);
  const redactText = makeRedactor(secrets);
  const logger = options.logger ?? createLogger({ redact: redactText, stderrLevel: options.stderrLevel });
  const ownsClient = !options.client;
  const client =
    options.client ??
    new WebDataClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      legacyBaseUrl: config.legacyBaseUrl,
      legacyAuth: config.legacyAuth,
      maxRps: config.maxRps,
    });
  const taskStore = new ToolTaskStore();
  const server = new McpServer(
    { name: SERVER_NAME, title: "Web Data", version: VERSION },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
      instructions: INSTRUCTIONS,
    },
  );
  installToolListCache(server);
  const detachLogger = logger.attach(server);
  const services: ToolServices = options.services ?? {};
  const deps = { config, client, services, log: logger, redact: redactText, taskStore };
  const tools = new Map<string, RegisteredTool>();
  const definitions = new Map<string, ToolDefinition>();
  const addTool = (tool: ToolDefinition) => {
    const registered = registerDefinedTool(server, tool, deps);
    tools.set(tool.name, registered);
    definitions.set(tool.name, tool);
    const remove = registered.remove.bind(registered);
    registered.remove = () => {
      tools.delete(tool.name);
      definitions.delete(tool.name);
      remove();
    };
    return registered;
  };
  for (const tool of options.tools ?? selectTools(config)) addTool(tool);
  installToolCalls(server, definitions, deps);

  const closers: Array<() => void | Promise<void>> = [];
  const host: ServerHost = {
    server,
    config,
    client,
    services,
    log: logger,
    addTool,
    onClose: (fn) => closers.push(fn),
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
      taskStore.close();
      for (const fn of closers) await Promise.resolve(fn()).catch(() => {});
      detachLogger();
      await server.close().catch(() => {});
      if (ownsClient) await client.close();
    })();
    return closed;
  };
  return { server, client, services, logger, tools, ready, close };
}
