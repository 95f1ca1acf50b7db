/**
 * The one way to define an MCP tool: name, title, short description, toolset, zod raw shapes for
 * input and output, one read-only flag (plus idempotent) from which every annotation derives,
 * and a handler that returns `{ structured, text, images? }` or THROWS (`ApiError` or
 * `ToolError`). `src/server/list-tools.ts` lists a definition, `src/server/call-tool.ts` calls it.
 */
import { channel } from "node:diagnostics_channel";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { WebDataClient } from "../api/client.js";
import { buildOnce } from "../api/lazy-schema.js";
import type { RouteName } from "../api/routes.js";
import type { WorkKind } from "../api/work.js";
import type { Completion, WaitOutcome, WaitTarget } from "../async/wait.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { Principal } from "../principal.js";
import type { Toolset } from "../toolsets.js";
import type { ToolLink } from "./resources.js";

export type { Toolset } from "../toolsets.js";
export { DEFAULT_TOOLSETS, TOOLSETS } from "../toolsets.js";

export interface ToolImage {
  /** base64 */
  data: string;
  mimeType: string;
}

export interface ToolResult<S> {
  structured: S;
  /** Markdown an agent reads; kept well under 25,000 tokens. */
  text: string;
  images?: ToolImage[];
  /** Bulky parts as `resource_link` items (`webdata://`, read with `resources/read`). */
  links?: ToolLink[];
}

export interface ProgressUpdate {
  /** Forced strictly increasing by the context. */
  progress: number;
  total?: number;
  message?: string;
}

export interface WaitCallOptions {
  /** Overrides the call's deadline (ms from now); the call's deadline still bounds it. */
  deadlineMs?: number;
  /** Passed through to `waitFor`: what reports the work's end (e.g. a research run's event stream). */
  completion?: Completion;
  /** No progress from the polls: the tool reports its own (e.g. from an event stream). */
  quiet?: boolean;
}

/**
 * Shared services other parts hang on the context (the agents part adds `agents`), declared by
 * module augmentation:
 *   declare module "../tools/tool.js" { interface ToolServices { agents: AgentCatalog } }
 * and filled in by a `ServerExtension` (see registry.ts).
 */
export interface ToolServices {
  /** Over HTTP with a public URL: the webhook registry, which wakes a wait when its work ends. */
  taskCompletion?: Completion;
  /** True when the API key came from the HTTP session's X-Webdata-Api-Key header, not the environment. */
  sessionKey?: boolean;
}

export interface ToolContext {
  client: WebDataClient;
  config: Config;
  /** Aborted when the client cancels (or the MCP task is cancelled). */
  signal: AbortSignal;
  /** Sends `notifications/progress` when the caller asked for progress; otherwise a no-op. */
  progress(update: ProgressUpdate): Promise<void>;
  log: Logger;
  /** `waitFor` bound to this call's deadline, signal and progress. Never throws on the deadline. */
  wait(target: WaitTarget, options?: WaitCallOptions): Promise<WaitOutcome>;
  /** ms epoch at which a long call stops waiting and returns a resumable handle. */
  deadline: number;
  services: ToolServices;
  /**
   * Who the call is for over HTTP (undefined on stdio). Under the server's shared key `client`
   * already sees only this principal's work; anything else a tool or resource keeps or reads
   * per caller must be scoped by `principal.id`.
   */
  principal?: Principal;
  /**
   * Under the server's shared key: of these ids of one kind, those the principal may see (its own,
   * and the account's made outside this server; src/server/ownership-hook.ts). For what a tool
   * lists from a cache the key's callers share rather than through `client` (the agent catalog).
   * Undefined when every id is visible (stdio, a caller's own key).
   */
  visible?: (kind: WorkKind, ids: readonly string[]) => Promise<Set<string>>;
  /** The caller's MCP tasks (`tasks/*`): over HTTP only its session's are found. */
  tasks?: McpTasks;
}

/** What a tool may do to the caller's MCP tasks. */
export interface McpTasks {
  /**
   * Cancels the task as `tasks/cancel` would (its work stops); an ended task keeps its state
   * (`ended`). Undefined when the caller has no such task.
   */
  cancel(taskId: string): Promise<{ status: string; ended: boolean } | undefined>;
}

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  /** snake_case */
  name: string;
  title: string;
  /** Short: when to use the tool. */
  description: string;
  toolset: Toolset;
  /**
   * Left out of the default tool set: listed only when `WEBDATA_TOOLSETS` names its toolset (or
   * `all`). For a tool a first try should not reach for (generate_template bills a generation).
   */
  optIn?: boolean;
  /**
   * The API routes the tool calls (names in `ROUTES`, src/api/routes.ts), besides the polls every
   * long tool makes through the waiting mechanism: the README's routes column and the check that
   * every request a tool makes is one of them follow from it.
   */
  routes?: readonly RouteName[];
  input: I;
  /**
   * The whole input object, for what a raw shape cannot say (strict or loose); `input` is then its
   * shape. Dedicated agent tools use it.
   */
  inputObject?: z.ZodObject;
  output: O;
  /** Reads only (no side effects beyond spending budget). */
  readOnly: boolean;
  /** Defaults to `readOnly`. */
  idempotent?: boolean;
  /** Deletes or ends something (a template, an agent, a job, a running crawl); only for a tool that writes. */
  destructive?: boolean;
  /** Waits for async work: gets progress, a deadline handle and MCP task support. */
  longRunning?: boolean;
  /**
   * One or two argument sets that work on the sandbox: shown in the README and by
   * `call TOOL --help`; test/tools/examples.test.ts runs each one.
   */
  examples?: readonly ToolExample[];
  handler(args: z.output<z.ZodObject<I>>, ctx: ToolContext): Promise<ToolResult<z.input<z.ZodObject<O>>>>;
}

/** Example arguments of a tool, exactly as a client would send them. */
export type ToolExample = Readonly<Record<string, unknown>>;

/** A defined tool; the registry holds these. */
export type ToolDefinition = ToolSpec<z.ZodRawShape, z.ZodRawShape>;

/**
 * What a tool file gives `defineTool`: its `input` and `output` as functions, so a process builds
 * the zod schemas of the tools it uses, when it first reads them (a call, `tools/list` without the
 * build-time list), and not those of every tool as the registry loads (a spawned server's first
 * call waited for them).
 */
export type ToolSource<I extends z.ZodRawShape, O extends z.ZodRawShape> = Omit<
  ToolSpec<I, O>,
  "input" | "output"
> & {
  input: () => I;
  output: () => O;
};

/**
 * Each tool schema's build is published here as `{ tool, part, definition }` (only while something
 * subscribes): test/tools/lazy-tool-schemas.test.ts checks that loading the registry builds none.
 * The channel is the process's, so the definition tells one module instance's tools from another's.
 */
const schemaBuilt = channel("web-data-mcp:tool-schema-built");

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  source: ToolSource<I, O>,
): ToolDefinition {
  const { input, output, ...spec } = source;
  const once = <T>(part: "input" | "output", make: () => T) =>
    buildOnce(() => {
      if (schemaBuilt.hasSubscribers) schemaBuilt.publish({ tool: spec.name, part, definition });
      return make();
    });
  const builtInput = once("input", input);
  const builtOutput = once("output", output);
  const definition: ToolDefinition = {
    ...spec,
    get input() {
      return builtInput();
    },
    get output() {
      return builtOutput();
    },
  };
  return definition;
}

/**
 * Every annotation derives from `readOnly` / `idempotent` / `destructive`. The destructive and
 * idempotent hints only mean something for a tool that writes, so a read-only tool leaves them out.
 * `openWorldHint` is left at the protocol's default, true (every tool reaches the service and the
 * web): 6 tokens a tool in every `tools/list`.
 */
export function toolAnnotations(tool: ToolDefinition): ToolAnnotations {
  if (tool.readOnly) return { readOnlyHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: tool.destructive ?? false,
    idempotentHint: tool.idempotent ?? false,
  };
}

/**
 * What a `ServerExtension` gets when a server is created: the parts it may extend and a way to
 * change its dynamic tools at any time.
 */
export interface ServerHost {
  config: Config;
  client: WebDataClient;
  services: ToolServices;
  log: Logger;
  /**
   * Replaces the dynamic tools of one group (e.g. "agents") with these, called like every other
   * tool. When the listed tools change after connect, the client gets one `tools/list_changed`.
   */
  setTools(group: string, tools: readonly ToolDefinition[]): void;
  /** `tools/list` waits for this work first (bound it: the client waits for the answer). */
  beforeList(work: Promise<unknown>): void;
  /** Runs once the client has finished the handshake (`notifications/initialized`). */
  onInitialized(fn: () => void): void;
  /** Runs when the server closes. */
  onClose(fn: () => void | Promise<void>): void;
}

/** Hooks run by `createServer()` (listed in registry.ts), e.g. the dynamic `agent_<name>` tools. */
export type ServerExtension = (host: ServerHost) => void | Promise<void>;
