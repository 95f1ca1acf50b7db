/**
 * Helpers that build agent records compactly.
 *
 * Rule vocabulary of `input_properties[].rules` (src/agents/rules.ts parses the same strings):
 *   "min_length:N"  string has at least N characters     "max_length:N"  at most N characters
 *   "pattern:RE"    string matches the regular expression RE (JavaScript syntax, unanchored)
 *   "min:N"         number >= N                          "max:N"         number <= N
 *   "one_of:a|b|c"  value is one of the listed strings
 *   "min_items:N" / "max_items:N"   array length bounds
 * Types: "string", "integer", "number", "boolean", "array[string]".
 */
import type { AgentDetail, InputProperty, OutputFragment } from "../../api/schemas.js";

export interface ParamOptions {
  required?: boolean;
  rules?: string[];
  examples?: unknown[] | null;
  default?: unknown;
  localization?: boolean;
  pagination?: boolean;
}

export function param(name: string, type: string, description: string, o: ParamOptions = {}): InputProperty {
  return {
    name,
    required: o.required ?? false,
    type,
    description,
    rules: o.rules ?? [],
    examples: o.examples ?? null,
    default: o.default ?? null,
    is_localization_param: o.localization ?? false,
    is_pagination_param: o.pagination ?? false,
  };
}

export const urlParam = (what: string, example: string) =>
  param("url", "string", `URL of the ${what}`, {
    required: true,
    rules: ["pattern:^https?://", "max_length:2048"],
    examples: [example],
  });

export const queryParam = (examples: string[]) =>
  param("query", "string", "Search keyword or phrase", {
    required: true,
    rules: ["min_length:2", "max_length:200"],
    examples,
  });

export const pageParam = (max = 50) =>
  param("page", "integer", "Result page number, starting at 1", {
    rules: ["min:1", `max:${max}`],
    default: 1,
    examples: [1, 2],
    pagination: true,
  });

export const countryParam = () =>
  param("country", "string", "Two-letter ISO country code used to localise the results", {
    rules: ["pattern:^[A-Za-z]{2}$"],
    default: "us",
    examples: ["us", "de", "fr"],
    localization: true,
  });

export const s = (description: string, extra: Partial<OutputFragment> = {}): OutputFragment => ({
  type: "string",
  description,
  ...extra,
});
export const n = (description: string, extra: Partial<OutputFragment> = {}): OutputFragment => ({
  type: "number",
  description,
  ...extra,
});
export const b = (description: string): OutputFragment => ({ type: "boolean", description });
export const uri = (description: string): OutputFragment => ({ type: "string", format: "uri", description });
export const arr = (description: string, items: OutputFragment): OutputFragment => ({
  type: "array",
  description,
  items,
});
export const obj = (description: string, properties: Record<string, OutputFragment>): OutputFragment => ({
  type: "object",
  description,
  properties,
});

export interface AgentSpec {
  name: string;
  display_name: string;
  description: string;
  vertical: string;
  entity_type: string;
  domain: string | null;
  managed_by?: "vendor" | "community" | "self_managed";
  is_public?: boolean;
  inputs: InputProperty[];
  output: Record<string, OutputFragment>;
}

export function agent(spec: AgentSpec): AgentDetail {
  return {
    name: spec.name,
    is_public: spec.is_public ?? true,
    display_name: spec.display_name,
    managed_by: spec.managed_by ?? "vendor",
    description: spec.description,
    vertical: spec.vertical,
    entity_type: spec.entity_type,
    domain: spec.domain,
    output_schema: spec.output,
    input_properties: spec.inputs,
    feature_flags: {
      is_localization_supported: spec.inputs.some((p) => p.is_localization_param),
      is_pagination_supported: spec.inputs.some((p) => p.is_pagination_param),
    },
  };
}
