import type { AgentDetail, InputProperty } from "../../src/api/schemas.js";

export const prop = (p: Partial<InputProperty> & { name: string; type: string }): InputProperty => ({
  required: false,
  description: `The ${p.name}`,
  rules: [],
  examples: null,
  default: null,
  is_localization_param: false,
  is_pagination_param: false,
  ...p,
});

export const detail = (name: string, input: InputProperty[] | null, extra: Partial<AgentDetail> = {}) =>
  ({
    name,
    is_public: true,
    display_name: name,
    managed_by: "vendor",
    description: `Agent ${name}`,
    vertical: "ecommerce",
    entity_type: "product",
    domain: "shop.example",
    input_properties: input,
    output_schema: { title: { type: "string" } },
    feature_flags: { is_localization_supported: false, is_pagination_supported: false },
    ...extra,
  }) as AgentDetail;
