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
  "legacy",
] as const;

export type Toolset = (typeof TOOLSETS)[number];

/** Exposed when `WEBDATA_TOOLSETS` is not set (`legacy` joins them when `WEBDATA_LEGACY_AUTH` is set). */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSETS.filter((t) => t !== "legacy");

export const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

/** Whether a configuration exposes a toolset: one of its toolsets; `legacy` only with a legacy credential. */
export const exposesToolset = (
  config: { toolsets: readonly string[]; legacyAuth?: string },
  toolset: Toolset,
) => config.toolsets.includes(toolset) && (toolset !== "legacy" || !!config.legacyAuth);
