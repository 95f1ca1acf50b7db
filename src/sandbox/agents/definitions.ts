import type { AgentDetail } from "../../api/schemas.js";

export const BUILTIN_AGENTS: AgentDetail[] = [];
