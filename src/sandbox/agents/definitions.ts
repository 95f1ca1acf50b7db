import type { AgentDetail } from "../../api/schemas.js";
import { COMMERCE_AGENTS } from "./commerce-agents.js";
import { CONTENT_AGENTS } from "./content-agents.js";

/** The catalog every sandbox starts with (26 agents across verticals). */
export const BUILTIN_AGENTS: readonly AgentDetail[] = [...COMMERCE_AGENTS, ...CONTENT_AGENTS];
