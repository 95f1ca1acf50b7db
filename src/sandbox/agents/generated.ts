import type { AgentDetail } from "../../api/schemas.js";

export function generatedAgents(_n: number): AgentDetail[] {
  return [];
}
