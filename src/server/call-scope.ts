/**
 * One call's scope, whichever protocol revision carried it: who it is for, how it is cancelled,
 * where its progress and log lines go. Built once per request by the transport layer (the 2025
 * path from the SDK's handler `extra`, the 2026-07-28 path from its own request context) and
 * passed down as a parameter to the one tool runner (`runCall` in ./call-tool.ts). A tool sees
 * only its `ToolContext`, never the revision.
 */
import type { Logger } from "../logger.js";
import type { Principal } from "../principal.js";
import type { McpTasks } from "../tools/tool.js";

/** A `notifications/progress` as both revisions send it. */
export interface ProgressNotice {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

export interface CallScope {
  /** Over HTTP: who the call is for (every piece of state and every cap belongs to it). stdio: none. */
  principal?: Principal;
  /** Aborted when the client cancels (2025: `notifications/cancelled`; 2026 HTTP: it closed the stream). */
  signal: AbortSignal;
  /** The request's progress token, when the client asked for progress. */
  progressToken?: string | number;
  /** Where progress goes: on the request's own stream. */
  sendNotification(notification: ProgressNotice): Promise<void>;
  /** The call's logger: its lines reach the caller at the level it asked for (and stderr). */
  log?: Logger;
  /** What the call may do to the caller's MCP tasks (2025 path only: the 2026 one has none). */
  tasks?: McpTasks;
}
