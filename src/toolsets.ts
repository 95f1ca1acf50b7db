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
 * set): what an agent reaches for first, to find and read the web and run the pre-built
 * extractions: search, extract, templates, agents, crawl, domain health, tasks and job runs. They
 * hold the nine core tools (DESIGN.md) and four more, 13 tools within the 4,000-token budget of
 * `tools/list` (issue 29; docs/tools.md has the figures). An opt-in tool (`ToolSpec.optIn`:
 * `generate_template`, which bills a generation) is left out of this default and comes with its
 * toolset once `WEBDATA_TOOLSETS` names it (or `all`). Only when named, or with `all`:
 * `research` (minutes-long billed runs), `media` (file downloads) and `manage` (template,
 * research agent and job writes).
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = [
  "search",
  "extract",
  "templates",
  "agents",
  "crawl",
  "health",
  "tasks",
  "jobs",
];

export const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

/** Whether a configuration exposes a toolset: one of its toolsets; `legacy` only with a legacy credential. */
export const exposesToolset = (
  config: { toolsets: readonly string[]; legacyAuth?: string },
  toolset: Toolset,
) => config.toolsets.includes(toolset) && (toolset !== "legacy" || !!config.legacyAuth);

/**
 * Whether a configuration exposes a tool: its toolset is exposed; an opt-in tool only when
 * `WEBDATA_TOOLSETS` named the toolsets (`toolsetsNamed`), not in the default set; and, with
 * `WEBDATA_READ_ONLY`, the tool only reads (it creates, changes or deletes no account state and
 * starts no billable work beyond a read).
 */
export const exposesTool = (
  config: { toolsets: readonly string[]; toolsetsNamed?: boolean; legacyAuth?: string; readOnly?: boolean },
  tool: { toolset: Toolset; readOnly: boolean; optIn?: boolean },
) =>
  exposesToolset(config, tool.toolset) &&
  (!tool.optIn || config.toolsetsNamed === true) &&
  (!config.readOnly || tool.readOnly);
