/** The name of an agent's dedicated tool; zod-free, so the stdio fast front can use it too. */

/** `agent_<name>` with characters outside [A-Za-z0-9_.-] replaced, at most 64 characters. */
export function agentToolName(agent: string): string {
  return `agent_${agent.replace(/[^A-Za-z0-9_.-]/g, "_")}`.slice(0, 64);
}
