/**
 * The logger: lines at or above the stderr level go to stderr (never stdout) and, once a server
 * is attached, lines at or above the level its client set with `logging/setLevel` (`info` until
 * it sets one) go to the client as `notifications/message`. A line nobody wants costs nothing:
 * no redaction, no JSON, no message. Secrets are redacted before anything leaves.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.js";

export type { Logger } from "../logger.js";

/** What a client gets before it sends `logging/setLevel`: no per-call debug chatter. */
export const DEFAULT_CLIENT_LEVEL: LoggingLevel = "info";

const ORDER: LoggingLevel[] = [
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
}

export function createLogger(options: LoggerOptions = {}): ServerLogger {
  const redact = options.redact ?? ((s: string) => s);
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const minStderr = ORDER.indexOf(options.stderrLevel ?? "info");
  const name = options.name ?? "web-data";
  /** Each attached server with the lowest level its client wants. */
  const servers = new Map<Server, number>();

  const log = (level: LoggingLevel, message: string, data?: Record<string, unknown>) => {
    const rank = ORDER.indexOf(level);
    const toStderr = rank >= minStderr;
    const clients = [...servers].filter(([server, min]) => rank >= min && server.transport !== undefined);
    if (!toStderr && clients.length === 0) return;
    const safeMessage = redact(message);
    const safeData = data === undefined ? undefined : redact(JSON.stringify(data));
    if (toStderr) write(`[${name}] ${level}: ${safeMessage}${safeData ? ` ${safeData}` : ""}\n`);
    for (const [server] of clients) {
      server
        .sendLoggingMessage({
          level,
          logger: name,
          data: safeData ? { message: safeMessage, ...JSON.parse(safeData) } : safeMessage,
        })
        .catch(() => {});
    }
  };

  return {
    debug: (m, d) => log("debug", m, d),
    info: (m, d) => log("info", m, d),
    warning: (m, d) => log("warning", m, d),
    error: (m, d) => log("error", m, d),
    attach(server) {
      servers.set(server, ORDER.indexOf(DEFAULT_CLIENT_LEVEL));
      // Replaces the SDK's own handler, which forwards every level until the client sets one.
      server.setRequestHandler(SetLevelRequestSchema, (request) => {
        if (servers.has(server)) servers.set(server, ORDER.indexOf(request.params.level));
        return {};
      });
      return () => servers.delete(server);
    },
    setClientLevel(server, level) {
      if (servers.has(server)) servers.set(server, ORDER.indexOf(level));
    },
  };
}
