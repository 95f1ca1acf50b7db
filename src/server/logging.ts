/**
 * The logger: every line goes to stderr (never stdout) and, once a server is attached, to the
 * client as `notifications/message` — the SDK drops messages below the level the client set
 * with `logging/setLevel`. Secrets are redacted before anything leaves.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

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
  /** Forwards to this server's client (after connect); returns the detach function. */
  attach(server: McpServer): () => void;
}

export function createLogger(options: LoggerOptions = {}): ServerLogger {
  const redact = options.redact ?? ((s: string) => s);
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const minStderr = ORDER.indexOf(options.stderrLevel ?? "info");
  const name = options.name ?? "web-data";
  const servers = new Set<McpServer>();

  const log = (level: LoggingLevel, message: string, data?: Record<string, unknown>) => {
    const safeMessage = redact(message);
    const safeData = data === undefined ? undefined : redact(JSON.stringify(data));
    if (ORDER.indexOf(level) >= minStderr) {
      write(`[${name}] ${level}: ${safeMessage}${safeData ? ` ${safeData}` : ""}\n`);
    }
    for (const server of servers) {
      if (!server.isConnected()) continue;
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
      servers.add(server);
      return () => servers.delete(server);
    },
  };
}
