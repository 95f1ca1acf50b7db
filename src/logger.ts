/**
 * The logger every part writes to (src/server/logging.ts makes the one that goes to stderr and
 * the MCP client). A type only, beside config: readable by every folder, importing none of them.
 */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}
