/**
 * The logger: lines at or above the stderr level go to stderr (never stdout) and, once a server
 * is attached, lines at or above the level its client set with `logging/setLevel` (`info` until
 * it sets one) go to the client as `notifications/message`. A line nobody wants costs nothing:
 * no redaction, no JSON, no message. Secrets are redacted before anything leaves.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCNotification,
  type LoggingLevel,
  type LoggingMessageNotification,
  type RequestId,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.js";

export type { Logger } from "../logger.js";

/** What a client gets before it sends `logging/setLevel`: no per-call debug chatter. */
export const DEFAULT_CLIENT_LEVEL: LoggingLevel = "info";

/** The levels, least severe first (both revisions rank a log line by this order). */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export interface LoggerOptions {
  /** Lowest level written to stderr; default `info`. */
  stderrLevel?: LoggingLevel;
  redact?: (text: string) => string;
  write?: (line: string) => void;
  name?: string;
}

export interface ServerLogger extends Logger {
  /**
   * Forwards to this server's client (after connect) at the level the client sets; returns the
   * detach function.
   */
  attach(server: Server): () => void;
  /**
   * Sets the level `server`'s client gets, as `logging/setLevel` would: the HTTP layer applies
   * the level a session set earlier to each request's fresh (or pooled) server.
   */
  setClientLevel(server: Server, level: LoggingLevel): void;
  /**
   * The logger of one call on `server`: its lines reach the client of the transport the server is
   * connected to now, on the call's own stream, at the level that client set — never the client
   * of a later request (a pooled server serves another session's next request while a task's work
   * goes on). Once that transport closed, the call's lines go to stderr only.
   */
  forCall(server: Server, requestId?: RequestId): Logger;
}

export function createLogger(options: LoggerOptions = {}): ServerLogger {
  const render = renderer(options);
  /** Each attached server with the lowest level its client wants. */
  const servers = new Map<Server, number>();
  const log: Log = (level, message, data) => {
    const rank = LOG_LEVELS.indexOf(level);
    const clients = [...servers].filter(([server, min]) => rank >= min && server.transport !== undefined);
    const params = render(level, message, data, clients.length > 0);
    if (!params) return;
    for (const [server] of clients) server.sendLoggingMessage(params).catch(() => {});
  };
  return {
    ...leveled(log),
    attach(server) {
      servers.set(server, LOG_LEVELS.indexOf(DEFAULT_CLIENT_LEVEL));
      // Replaces the SDK's own handler, which forwards every level until the client sets one.
      server.setRequestHandler(SetLevelRequestSchema, (request) => {
        if (servers.has(server)) servers.set(server, LOG_LEVELS.indexOf(request.params.level));
        return {};
      });
      return () => servers.delete(server);
    },
    setClientLevel(server, level) {
      if (servers.has(server)) servers.set(server, LOG_LEVELS.indexOf(level));
    },
    forCall: (server, requestId) => callLogger(render, server, servers.get(server), requestId),
  };
}

type Log = (level: LoggingLevel, message: string, data?: Record<string, unknown>) => void;
type LogParams = LoggingMessageNotification["params"];
/** Writes the line to stderr and returns it as its client would get it, or undefined when below every level. */
type Render = (
  level: LoggingLevel,
  message: string,
  data: Record<string, unknown> | undefined,
  wanted: boolean,
) => LogParams | undefined;

/** The logger whose four methods all go through `log`. */
const leveled = (log: Log): Logger => ({
  debug: (m, d) => log("debug", m, d),
  info: (m, d) => log("info", m, d),
  warning: (m, d) => log("warning", m, d),
  error: (m, d) => log("error", m, d),
});

/** Renders a line once, redacted, for stderr (at or above its level) and for whichever client wants it. */
function renderer(options: LoggerOptions): Render {
  const redact = options.redact ?? ((s: string) => s);
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const minStderr = LOG_LEVELS.indexOf(options.stderrLevel ?? "info");
  const name = options.name ?? "web-data";
  return (level, message, data, wanted) => {
    const toStderr = LOG_LEVELS.indexOf(level) >= minStderr;
    if (!toStderr && !wanted) return undefined;
    const safeMessage = redact(message);
    const safeData = data === undefined ? undefined : redact(JSON.stringify(data));
    if (toStderr) write(`[${name}] ${level}: ${safeMessage}${safeData ? ` ${safeData}` : ""}\n`);
    return {
      level,
      logger: name,
      data: safeData ? { message: safeMessage, ...JSON.parse(safeData) } : safeMessage,
    };
  };
}

/**
 * One call's logger: its lines go to the transport `server` is connected to now (on the call's own
 * stream, at the level `min` its client set), or to stderr only when there is none.
 */
function callLogger(render: Render, server: Server, min: number | undefined, requestId?: RequestId): Logger {
  const transport: Transport | undefined = server.transport;
  return leveled((level, message, data) => {
    const wanted = transport !== undefined && min !== undefined && LOG_LEVELS.indexOf(level) >= min;
    const params = render(level, message, data, wanted);
    if (!params || !wanted) return;
    const note: JSONRPCNotification = { jsonrpc: "2.0", method: "notifications/message", params };
    transport.send(note, { relatedRequestId: requestId }).catch(() => {});
  });
}
