/**
 * The permissive `agent_<name>` entry (listed until the catalog arrives) as a template: the
 * build-time snapshot (scripts/tool-snapshot.mjs) renders it for a placeholder name and checks
 * that filling the template in gives, byte for byte, what the full server lists for other names;
 * the stdio fast front fills it in on a cold start. Zod-free.
 */
import { agentToolName } from "./tool-name.js";

type Json = Record<string, unknown>;

export interface AgentTemplate {
  /** A valid agent name that occurs in the entry only where the agent's name does. */
  placeholder: string;
  tool: Json;
}

/** The entry for `name`; undefined for a name WEBDATA_AGENT_TOOLS would not accept. */
export function fillAgentTemplate(template: AgentTemplate, name: string): Json | undefined {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return undefined;
  const text = JSON.stringify(template.tool).replaceAll(template.placeholder, () => name);
  // Assigning an existing member keeps its place: the key order stays the server's.
  return { ...(JSON.parse(text) as Json), name: agentToolName(name) };
}
