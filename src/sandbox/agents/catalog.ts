/** The agent catalog: the built-in agents, generated padding, and run-time additions/removals. */
import type { AgentDetail } from "../../api/schemas.js";
import { BUILTIN_AGENTS } from "./definitions.js";
import { generatedAgents } from "./generated.js";

export class AgentCatalog {
  private readonly agents = new Map<string, AgentDetail>();

  constructor(extraAgents: number) {
    for (const agent of [...BUILTIN_AGENTS, ...generatedAgents(extraAgents)])
      this.agents.set(agent.name, agent);
  }

  add(agent: AgentDetail): void {
    this.agents.set(agent.name, structuredClone(agent));
  }

  remove(name: string): void {
    this.agents.delete(name);
  }

  get(name: string): AgentDetail | undefined {
    return this.agents.get(name);
  }

  all(): AgentDetail[] {
    return [...this.agents.values()];
  }
}

/** The listing's record: the detail without output_schema, input_properties and feature_flags. */
export function agentRecord(agent: AgentDetail) {
  const { output_schema: _o, input_properties: _i, feature_flags: _f, ...record } = agent;
  return record;
}
