/**
 * Runs one defined tool call: builds its `ToolContext` (signal, progress, log, deadline-bound
 * wait), calls the handler, checks the structured result against the output schema, and turns
 * a throw into an error result. Used for plain calls and for MCP task work alike.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { linkSignals, shareSignal } from "../api/abort.js";
import type { WebDataClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { redactDeep } from "../api/redact.js";
import { ProgressTracker } from "../async/progress.js";
import { type WaitOutcome, waitFor } from "../async/wait.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { isExpected, toolError } from "../tools/errors.js";
import { withLinksInText } from "../tools/resources.js";
import { pendingResult } from "../tools/result.js";
import type { ProgressUpdate, ToolContext, ToolDefinition, ToolResult, ToolServices } from "../tools/tool.js";
import type { CallScope, ProgressNotice } from "./call-scope.js";
import type { OwnershipStore } from "./ownership.js";
import { ownedClient, visibleTo } from "./ownership-hook.js";
import { claimLinks } from "./resources.js";
import { outputSchema } from "./tool-schemas.js";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool's arguments once checked against its input schema. */
export type ToolArgs = Parameters<ToolDefinition["handler"]>[0];

export interface ToolDeps {
  config: Config;
  client: WebDataClient;
  services: ToolServices;
  log: Logger;
  redact: (text: string) => string;
  /** Over HTTP: which principal started which upstream work (reads under the shared key are scoped by it). */
  ownership?: OwnershipStore;
}

/** The call's scope (./call-scope.ts) plus its deadline. */
export interface CallOptions extends CallScope {
  deadline: number;
}

export function toCallToolResult(result: ToolResult<unknown>, redact: (s: string) => string): CallToolResult {
  const text = withLinksInText(result.text, result.links);
  const content: CallToolResult["content"] = [{ type: "text", text: redact(text) }];
  // Every string that came from upstream is redacted, a link's name, description and media type
  // too (an echoed key once reached the client in a link's mimeType); an image's bytes are not text.
  for (const image of result.images ?? [])
    content.push({ type: "image", data: image.data, mimeType: redact(image.mimeType) });
  for (const link of result.links ?? []) content.push({ type: "resource_link", ...redactDeep(link, redact) });
  return { content, structuredContent: redactDeep(result.structured as Record<string, unknown>, redact) };
}

/** The tool's progress through the one progress rule (async/progress.ts): strictly increasing. */
function makeProgress(opts: CallOptions): ToolContext["progress"] {
  const tracker = new ProgressTracker();
  return async (update: ProgressUpdate) => {
    if (opts.progressToken === undefined || opts.signal.aborted) return;
    const done = update.total !== undefined && update.progress >= update.total;
    const { progress, total } = tracker.next(update.progress, update.total, update.message ?? "", done);
    const params: Record<string, unknown> = { progressToken: opts.progressToken, progress };
    if (total !== undefined && total >= progress) params.total = total;
    if (update.message) params.message = update.message;
    await opts
      .sendNotification({ method: "notifications/progress", params } as ProgressNotice)
      .catch(() => {});
  };
}

/**
 * Time a long tool may take past its deadline to read results its wait found done just in time
 * (its wait itself returns the pending handle at the deadline).
 */
const RESULT_GRACE_MS = 1_000;

/**
 * The call's cancellation plus its deadline, as a "TimeoutError" abort (the client then ends the
 * request with `timeout`, and `maybeAccepted` for a sent submission). The timer is cleared when
 * the call ends, so finished calls hold no timers.
 */
function deadlineSignal(opts: CallOptions, graceMs: number): { signal: AbortSignal; clear(): void } {
  const left = Math.max(0, opts.deadline - Date.now()) + graceMs;
  const linked = linkSignals([opts.signal], { ms: left, message: "the call reached its deadline" });
  return { signal: shareSignal(linked.signal), clear: linked.dispose };
}

/** What a call's waits found last: a handle to give back if reading the results outlasts the deadline. */
interface WaitRecord {
  last?: WaitOutcome;
}

export function makeContext(
  deps: ToolDeps,
  opts: CallOptions,
  signal = opts.signal,
  waits: WaitRecord = {},
): ToolContext {
  const progress = makeProgress(opts);
  const { principal } = opts;
  const hooked = opts.hook ? deps.client.withHook(opts.hook) : deps.client;
  // Over HTTP each principal's requests wait in its own lane of the key's rate limiter.
  const laned = principal ? hooked.inLane(principal.id) : hooked;
  const owned = principal?.sharedKey && deps.ownership ? { principal, store: deps.ownership } : undefined;
  const client = owned ? ownedClient(laned, owned.principal, owned.store) : laned;
  return {
    client,
    principal,
    ...(owned ? { visible: visibleTo(owned.principal, owned.store) } : {}),
    ...(opts.tasks ? { tasks: opts.tasks } : {}),
    config: deps.config,
    signal,
    progress,
    log: deps.log,
    deadline: opts.deadline,
    services: deps.services,
    wait(target, options = {}) {
      const remaining = Math.max(0, opts.deadline - Date.now());
      let polls = 0;
      const outcome = waitFor(client, target, {
        deadlineMs: Math.min(remaining, options.deadlineMs ?? remaining),
        signal: opts.signal,
        completion: options.completion ?? deps.services.taskCompletion,
        onProgress: (p: unknown) => {
          if (options.quiet) return;
          polls += 1;
          const r = (typeof p === "object" && p !== null ? p : {}) as Partial<ProgressUpdate>;
          void progress(
            typeof r.progress === "number"
              ? { progress: r.progress, total: r.total, message: r.message }
              : { progress: polls, message: `${target.kind} ${target.id} running` },
          );
        },
      });
      return outcome.then((o) => {
        waits.last = o;
        return o;
      });
    },
  };
}

/**
 * A long tool whose wait ended but whose reading of the results ran out of time (e.g. queued
 * behind the rate limit): the work is not lost, so the answer is the handle that resumes it.
 */
function deadlineHandle(
  error: unknown,
  opts: CallOptions,
  waits: WaitRecord,
): ToolResult<unknown> | undefined {
  const last = waits.last;
  if (!last || opts.signal.aborted || !(error instanceof ApiError) || error.code !== "timeout")
    return undefined;
  return pendingResult({ target: last.target, state: last.state });
}

/** Runs the handler; never throws. */
export async function runTool(
  tool: ToolDefinition,
  args: ToolArgs,
  deps: ToolDeps,
  opts: CallOptions,
): Promise<CallToolResult> {
  const started = Date.now();
  const limit = deadlineSignal(opts, tool.longRunning ? RESULT_GRACE_MS : 0);
  const waits: WaitRecord = {};
  try {
    const result = await tool
      .handler(args, makeContext(deps, opts, limit.signal, waits))
      .catch((error: unknown) => {
        const handle = deadlineHandle(error, opts, waits);
        if (handle) return handle;
        throw error;
      });
    // Checked here for plain calls and task work alike (the SDK's low-level server checks only the shape).
    const checked = outputSchema(tool).safeParse(result.structured);
    if (!checked.success) {
      deps.log.error(`tool ${tool.name} built a result outside its output schema`, {
        issues: checked.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      throw new Error(`internal error: ${tool.name} produced an invalid result`);
    }
    // Awaited only when there is something to claim: a call without links takes no extra turn.
    if (result.links?.length) await claimLinks(result.links, opts.principal, deps.ownership);
    deps.log.debug(`tool ${tool.name} done`, { ms: Date.now() - started });
    return toCallToolResult(result, deps.redact);
  } catch (error) {
    const { result, code } = toolError(error, deps.redact, { sessionKey: deps.services.sessionKey === true });
    if (!isExpected(error)) {
      // A bug of ours: the stack goes to stderr (redacted like every line), the agent gets internal_error.
      deps.log.error(`tool ${tool.name} threw`, {
        stack: error instanceof Error ? error.stack : String(error),
      });
    }
    deps.log.info(`tool ${tool.name} failed: ${code}`, { ms: Date.now() - started });
    return result;
  } finally {
    limit.clear();
  }
}
