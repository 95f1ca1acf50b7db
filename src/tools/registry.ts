/**
 * Every tool, in one array; toolsets are derived from each definition's `toolset`, never kept
 * as a separate list. Adding a tool: one import and one entry below.
 */
import type { Config } from "../config.js";
import type { ServerExtension, ToolDefinition } from "./tool.js";

export const ALL_TOOLS: readonly ToolDefinition[] = [];

/** Hooks `createServer()` runs with a `ServerHost` (services, dynamic tools). One entry each. */
export const SERVER_EXTENSIONS: readonly ServerExtension[] = [];

/** The tools a configuration exposes: its toolsets; `legacy` only with `WEBDATA_LEGACY_AUTH`. */
export function selectTools(
  config: Pick<Config, "toolsets" | "legacyAuth">,
  tools: readonly ToolDefinition[] = ALL_TOOLS,
): ToolDefinition[] {
  const wanted = new Set(config.toolsets);
  return tools.filter((t) => wanted.has(t.toolset) && (t.toolset !== "legacy" || !!config.legacyAuth));
}
