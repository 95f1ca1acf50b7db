/** One agent's details → its params schema, output schema and the notes of any degradation. */
import type { AgentDetail } from "../api/schemas.js";
import { buildParamsSchema, type ParamsSchema } from "./input-schema.js";
import { describeParam } from "./messages.js";
import { buildOutputSchema, type OutputSchema } from "./output-schema.js";

export interface CompiledAgent {
  name: string;
  params: ParamsSchema;
  output: OutputSchema;
  notes: string[];
}

export function compileAgent(detail: AgentDetail): CompiledAgent {
  const params = buildParamsSchema(detail.input_properties);
  const output = buildOutputSchema(detail.output_schema as Record<string, unknown> | null | undefined);
  return { name: detail.name, params, output, notes: [...params.notes, ...output.notes] };
}

export interface ParamsCheck {
  ok: boolean;
  /** The params to send: the input minus optional params given as null (defaults are left to the API). */
  params: Record<string, unknown>;
  /** One line per problem, in the agent's own words. */
  problems: string[];
}

/**
 * Checks params against the agent's schema. `callback_url` (the documented async callback) is
 * always allowed. Messages come from the schema's agent-worded error maps.
 */
export function checkParams(agent: CompiledAgent, params: unknown): ParamsCheck {
  const input = (params ?? {}) as Record<string, unknown>;
  if (typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, params: {}, problems: ["params must be an object of the agent's parameters"] };
  }
  // An optional param given as null means "not given" (as the API reads it): dropped.
  const required = new Set(agent.params.properties.filter((p) => p.required).map((p) => p.name));
  const cleaned = Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== null || required.has(k)));
  const rest = { ...cleaned };
  delete rest.callback_url;
  const result = agent.params.schema.safeParse(rest);
  if (result.success) return { ok: true, params: cleaned, problems: [] };
  const problems = result.error.issues.map((i) => i.message);
  return { ok: false, params: cleaned, problems: [...new Set(problems)] };
}

/** The agent's full input description, one param a line, for listings and error answers. */
export function describeInputs(agent: CompiledAgent): string {
  const props = agent.params.properties;
  if (!agent.params.exact)
    return "This agent publishes no input description; any params are passed as given.";
  if (props.length === 0) return "This agent takes no params.";
  const lines = props.map((p) => `- ${describeParam(p)}${p.is_pagination_param ? " [pagination]" : ""}`);
  return lines.join("\n");
}
