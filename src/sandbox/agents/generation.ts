/**
 * POST /v1/agents/generations: creates a custom agent. The spec names the endpoint and the output
 * schema limits only; the request shape is ours:
 *   {name?, display_name?, description, domain?, output_schema, input_properties?}
 * and the answer is the created agent's detail (private, self_managed).
 * Output schema limits: the root is an object with `properties` or an array of such objects; no
 * `format`, `pattern`, minimum/maximum (or length/item count) constraints, no root `anyOf`, no
 * standalone `type: "null"`; nesting depth at most 5; at most 100 properties in total.
 */
import { z } from "zod";
import type { AgentDetail, OutputFragment, ValidationDetail } from "../../api/schemas.js";
import { InputPropertySchema } from "../../api/schemas.js";

export const MAX_DEPTH = 5;
export const MAX_PROPERTIES = 100;
const FORBIDDEN = [
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
];

export const GenerationRequestSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{2,63}$/, "must be 3-64 characters of a-z, 0-9 and _, starting with a letter")
    .optional(),
  display_name: z.string().min(1).max(200).optional(),
  description: z.string().min(1).max(2000),
  domain: z.string().max(300).optional(),
  output_schema: z.record(z.string(), z.unknown()),
  input_properties: z.array(InputPropertySchema).max(50).optional(),
});
export type GenerationRequest = z.output<typeof GenerationRequestSchema>;

type Loc = (string | number)[];
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** Problems with an output schema against the limits; empty when it is acceptable. */
export function outputSchemaProblems(schema: Node): ValidationDetail[] {
  const loc: Loc = ["body", "output_schema"];
  const problems: ValidationDetail[] = [];
  const fail = (at: Loc, msg: string) => problems.push({ loc: at, msg, type: "value_error" });
  if ("anyOf" in schema) fail([...loc, "anyOf"], "Value error, a root anyOf is not supported");
  const rootIsObject = schema.type === "object" && isNode(schema.properties);
  const rootIsArray =
    schema.type === "array" &&
    isNode(schema.items) &&
    schema.items.type === "object" &&
    isNode(schema.items.properties);
  if (!rootIsObject && !rootIsArray) {
    fail(loc, "Value error, the root must be an object with properties or an array of objects");
    return problems;
  }
  let count = 0;
  const walk = (node: Node, at: Loc, depth: number) => {
    for (const key of FORBIDDEN)
      if (key in node) fail([...at, key], `Value error, '${key}' is not supported in output schemas`);
    if (node.type === "null")
      fail([...at, "type"], "Value error, a standalone type of null is not supported");
    if (isNode(node.properties)) {
      if (depth > MAX_DEPTH) fail(at, `Value error, nesting deeper than ${MAX_DEPTH} levels`);
      for (const [name, child] of Object.entries(node.properties)) {
        count += 1;
        if (isNode(child)) walk(child, [...at, "properties", name], depth + 1);
        else fail([...at, "properties", name], "Value error, a property schema must be an object");
      }
    }
    if (isNode(node.items)) walk(node.items, [...at, "items"], depth);
  };
  walk(schema, loc, 1);
  if (count > MAX_PROPERTIES)
    fail(loc, `Value error, ${count} properties exceed the limit of ${MAX_PROPERTIES}`);
  return problems;
}

export function generatedAgent(req: GenerationRequest, name: string): AgentDetail {
  const schema = req.output_schema as Node;
  const output =
    schema.type === "object"
      ? (schema.properties as Record<string, OutputFragment>)
      : { items: { type: "array", items: schema.items as OutputFragment } };
  const inputs = req.input_properties ?? [];
  return {
    name,
    is_public: false,
    display_name: req.display_name ?? name.replace(/_/g, " "),
    managed_by: "self_managed",
    description: req.description,
    vertical: null,
    entity_type: null,
    domain: req.domain ?? null,
    output_schema: output,
    input_properties: inputs,
    feature_flags: {
      is_localization_supported: inputs.some((p) => p.is_localization_param),
      is_pagination_supported: inputs.some((p) => p.is_pagination_param),
    },
  };
}
