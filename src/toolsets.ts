/** The toolsets a tool belongs to; `WEBDATA_TOOLSETS` picks which are exposed. */
export const TOOLSETS = [
  "search",
  "extract",
  "templates",
  "agents",
  "crawl",
  "health",
  "tasks",
  "jobs",
  "research",
  "media",
  "manage",
  "legacy",
] as const;

export type Toolset = (typeof TOOLSETS)[number];

/**
 * Exposed when `WEBDATA_TOOLSETS` is not set (`legacy` joins them when `WEBDATA_LEGACY_AUTH` is
 * set): what an agent reaches for first. `manage` (template,
 * research agent and job writes), `research` (minutes-long billed runs) and `media` (file
 * downloads) only when named, or with `all`.
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSETS.filter(
  (t) => t !== "legacy" && t !== "manage" && t !== "research" && t !== "media",
);

export const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

/** Whether a configuration exposes a toolset: one of its toolsets; `legacy` only with a legacy credential. */
export const exposesToolset = (
  config: { toolsets: readonly string[]; legacyAuth?: string },
  toolset: Toolset,
) => config.toolsets.includes(toolset) && (toolset !== "legacy" || !!config.legacyAuth);

/**
 * Whether a configuration exposes a tool: its toolset is exposed and, with `WEBDATA_READ_ONLY`,
 * the tool only reads (it creates, changes or deletes no account state and starts no billable
 * work beyond a read).
 */
export const exposesTool = (
  config: { toolsets: readonly string[]; legacyAuth?: string; readOnly?: boolean },
  tool: { toolset: Toolset; readOnly: boolean },
) => exposesToolset(config, tool.toolset) && (!config.readOnly || tool.readOnly);
