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
 * set): what an agent reaches for first, to find and read the web: search, extract, crawl, the
 * pre-built agents, domain health and the tasks that resume or stop long work; 11 tools within
 * the 4,000-token budget of `tools/list` (issue 24; docs/tools.md has the figures). Only when
 * named, or with `all`: `templates` (running one needs a template the account made;
 * generate_template bills a generation), `jobs` (runs of recurring jobs, set up with `manage`),
 * `research` (minutes-long billed runs), `media` (file downloads) and `manage` (template,
 * research agent and job writes).
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = [
  "search",
  "extract",
  "agents",
  "crawl",
  "health",
  "tasks",
];

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
