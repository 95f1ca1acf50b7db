/**
 * Every tool, in one array; toolsets are derived from each definition's `toolset`, never kept
 * as a separate list. Adding a tool: one import and one entry below.
 */

import type { Config } from "../config.js";
import { exposesTool } from "../toolsets.js";
import { agentsExtension } from "./agent-tools.js";
import { cancel } from "./cancel.js";
import { checkDomainHealth } from "./check-domain-health.js";
import { crawlSite } from "./crawl-site.js";
import { downloadMedia } from "./download-media.js";
import { extractBatch } from "./extract-batch.js";
import { extractPage } from "./extract-page.js";
import { generateTemplate } from "./generate-template.js";
import { getSocialEvent } from "./get-social-event.js";
import { getTask } from "./get-task.js";
import { jobRuns } from "./job-runs.js";
import { listAgents } from "./list-agents.js";
import { listResearchAgents } from "./list-research-agents.js";
import { manageJob } from "./manage-job.js";
import { manageResearchAgent } from "./manage-research-agent.js";
import { manageTemplate } from "./manage-template.js";
import { mapSite } from "./map-site.js";
import { research } from "./research.js";
import { runAgent } from "./run-agent.js";
import { runTemplate } from "./run-template.js";
import { serpSearch } from "./serp-search.js";
import { serpSearchAsync } from "./serp-search-async.js";
import type { ServerExtension, ToolDefinition } from "./tool.js";
import { webSearch } from "./web-search.js";

export const ALL_TOOLS: readonly ToolDefinition[] = [
  webSearch,
  serpSearch,
  serpSearchAsync,
  extractPage,
  extractBatch,
  crawlSite,
  mapSite,
  getTask,
  listAgents,
  runAgent,
  runTemplate,
  generateTemplate,
  checkDomainHealth,
  jobRuns,
  cancel,
  research,
  listResearchAgents,
  downloadMedia,
  manageTemplate,
  manageResearchAgent,
  manageJob,
  getSocialEvent,
];

/** Hooks `createServer()` runs with a `ServerHost` (services, dynamic tools). One entry each. */
export const SERVER_EXTENSIONS: readonly ServerExtension[] = [agentsExtension];

/** The tools a configuration exposes: its toolsets (`legacy` only with `WEBDATA_LEGACY_AUTH`), read-only ones only with `WEBDATA_READ_ONLY`. */
export function selectTools(
  config: Pick<Config, "toolsets" | "legacyAuth" | "readOnly">,
  tools: readonly ToolDefinition[] = ALL_TOOLS,
): ToolDefinition[] {
  return tools.filter((t) => exposesTool(config, t));
}
