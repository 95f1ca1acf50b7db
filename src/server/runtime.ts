/**
 * What a server needs beyond `initialize` and the build-time `tools/list`, loaded by
 * `createServer()` in the background (a dynamic import): the API client (undici), the tool
 * definitions and their handlers, the agent catalog extension, argument and result checks. Holds
 * the tool set — the configured toolsets plus the groups extensions set — and runs the calls.
 */
import type {
  CallToolRequest,
  CallToolResult,
  ReadResourceRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { WebDataClient } from "../api/client.js";
import type { ApiObserver } from "../api/observer.js";
import type { Config } from "../config.js";
import { closeOwnCatalog } from "../tools/agent-run.js";
import { SERVER_EXTENSIONS, selectTools } from "../tools/registry.js";
import type { ServerExtension, ServerHost, ToolDefinition, ToolServices } from "../tools/tool.js";
import type { CallScope, RequestScope } from "./call-scope.js";
import { type CallDeps, callTool, checkArguments, runCall } from "./call-tool.js";
import { clientOptionsFrom } from "./client-options.js";
import type { FairShare } from "./fair-share.js";
import { adoptEntries, listTools } from "./list-tools.js";
import type { Logger, ServerLogger } from "./logging.js";
import type { OwnershipStore } from "./ownership.js";
import { type ReadOutcome, readFor, readResourceRequest, resourceTemplates } from "./resources.js";
import type { Extra } from "./run-tool.js";
import type { TaskWork } from "./tasks.js";

export interface RuntimeInput {
  config: Config;
  client?: WebDataClient;
  observer?: ApiObserver;
  tools?: readonly ToolDefinition[];
  extensions?: readonly ServerExtension[];
  /** The build-time list the server answered before this load, if any (./list-tools.ts `adoptEntries`). */
  prelisted?: readonly Tool[];
  services: ToolServices;
  logger: ServerLogger;
  redact: (text: string) => string;
  work: TaskWork;
  ownership?: OwnershipStore;
  fairShare?: FairShare;
  /** Filled with the current tools by name. */
  toolMap: Map<string, ToolDefinition>;
  /** Called after the tool set changed (the server decides whether to notify the client). */
  changed(): void;
  beforeList(work: Promise<unknown>): void;
  onInitialized(fn: () => void): void;
  onClose(fn: () => void | Promise<void>): void;
}

export interface Runtime {
  listed(): ReturnType<typeof listTools>;
  /**
   * Runs a call in its request's scope (over HTTP; none on stdio); `log` is the call's own logger
   * (its lines reach only its own client).
   */
  call(
    request: Pick<CallToolRequest, "params">,
    extra: Extra,
    scope: RequestScope | undefined,
    log?: Logger,
  ): ReturnType<typeof callTool>;
  read(
    request: Pick<ReadResourceRequest, "params">,
    extra: Extra,
    scope: RequestScope | undefined,
  ): ReturnType<typeof readResourceRequest>;
  templates(): ReturnType<typeof resourceTemplates>;
  /**
   * A plain call in an explicit scope (the 2026-07-28 path): `undefined` for a tool this server
   * does not have; bad arguments are the `invalid_argument` result.
   */
  run(name: string, args: Record<string, unknown>, scope: CallScope): Promise<CallToolResult> | undefined;
  /** Redacts the configured secrets (the server's key, or the caller's own) from text. */
  redact(text: string): string;
  /** Reads a `webdata://` link in an explicit scope (the 2026-07-28 path). */
  readIn(uri: string, scope: Pick<CallScope, "principal" | "signal">): Promise<ReadOutcome>;
  /** Settles when every extension's start-up work has (errors are logged, never thrown). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** What every call of this runtime runs with: the client (made here unless given) and the server's parts. */
function callDeps(input: RuntimeInput): CallDeps {
  const { config, logger } = input;
  const client =
    input.client ??
    new WebDataClient({
      ...clientOptionsFrom(config, config.apiKey),
      observer: input.observer,
      log: (message) => logger.warning(message),
    });
  return {
    config,
    client,
    services: input.services,
    log: logger,
    redact: input.redact,
    work: input.work,
    ownership: input.ownership,
    fairShare: input.fairShare,
  };
}

/** The tool set: the configured tools plus each extension's group; `set` replaces a group. */
function toolSet(input: RuntimeInput) {
  const staticTools = input.tools ?? selectTools(input.config);
  if (input.prelisted) adoptEntries(staticTools, input.prelisted);
  const groups = new Map<string, readonly ToolDefinition[]>();
  let listed = listTools([]);
  const rebuild = () => {
    input.toolMap.clear();
    for (const tool of [...staticTools, ...[...groups.values()].flat()]) input.toolMap.set(tool.name, tool);
    listed = listTools(input.toolMap.values());
  };
  rebuild();
  return {
    listed: () => listed,
    set(group: string, defined: readonly ToolDefinition[]) {
      groups.set(group, defined);
      rebuild();
      input.changed();
    },
  };
}

/** Runs every extension once; settles when each has (a failure is logged, never thrown). */
function startExtensions(input: RuntimeInput, host: ServerHost): Promise<void> {
  return Promise.all(
    (input.extensions ?? SERVER_EXTENSIONS).map(async (extension) => {
      try {
        await extension(host);
      } catch (error) {
        input.logger.error(
          `server extension failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }),
  ).then(() => undefined);
}

export function startRuntime(input: RuntimeInput): Runtime {
  const deps = callDeps(input);
  const { client } = deps;
  const tools = toolSet(input);
  const ready = startExtensions(input, {
    config: input.config,
    client,
    services: input.services,
    log: input.logger,
    setTools: tools.set,
    beforeList: input.beforeList,
    onInitialized: input.onInitialized,
    onClose: input.onClose,
  });
  return {
    listed: tools.listed,
    call: (request, extra, scope, log) =>
      callTool(request, extra, scope, input.toolMap.get(request.params.name), log ? { ...deps, log } : deps),
    read: (request, extra, scope) => readResourceRequest(request, extra, scope, deps),
    templates: resourceTemplates,
    run(name, args, scope) {
      const tool = input.toolMap.get(name);
      if (!tool) return undefined;
      const checked = checkArguments(tool, args, deps);
      return checked.ok ? runCall(tool, checked.data, deps, scope) : Promise.resolve(checked.result);
    },
    readIn: (uri, scope) => readFor(uri, scope, deps),
    redact: input.redact,
    ready,
    close: async () => {
      await closeOwnCatalog(input.services);
      if (!input.client) await client.close();
    },
  };
}
