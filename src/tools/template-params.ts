/**
 * Extract templates (v2): finding the version to validate against (the latest, or a given
 * `version_number`) through the paginated versions listing, and checking params against its
 * JSON-Schema `input_schema` before any run request.
 */

import { exampleLine, templateExampleParams } from "../agents/example-params.js";
import { templateInputSchema, templateIssues } from "../agents/json-schema.js";
import type { WebDataClient } from "../api/client.js";
import type { TemplateVersion } from "../api/schemas.js";
import { ToolError } from "./errors.js";

const PAGE = 200;
const MAX_PAGES = 20;
const TTL_MS = 10 * 60_000;

/** Versions per client and template, kept a few minutes (validation needs them on every run). */
const cache = new WeakMap<WebDataClient, Map<string, { at: number; versions: TemplateVersion[] }>>();

export async function templateVersions(
  client: WebDataClient,
  template: string,
  signal?: AbortSignal,
): Promise<TemplateVersion[]> {
  let perClient = cache.get(client);
  if (!perClient) {
    perClient = new Map();
    cache.set(client, perClient);
  }
  const hit = perClient.get(template);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.versions;
  const versions: TemplateVersion[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await client.listTemplateVersions(
      template,
      { limit: PAGE, offset: page * PAGE },
      { signal },
    );
    versions.push(...list.items);
    if (list.items.length < PAGE || versions.length >= (list.total ?? Number.POSITIVE_INFINITY)) break;
  }
  perClient.set(template, { at: Date.now(), versions });
  return versions;
}

/** The version asked for, or the highest `version_number`. */
export async function pickVersion(
  client: WebDataClient,
  template: string,
  version: number | undefined,
  signal?: AbortSignal,
): Promise<TemplateVersion> {
  let versions: TemplateVersion[];
  try {
    versions = await templateVersions(client, template, signal);
  } catch (e) {
    if ((e as { code?: string }).code === "not_found") versions = [];
    else throw e;
  }
  if (versions.length === 0) {
    throw new ToolError("not_found", `There is no template named "${template}" (it has no versions).`);
  }
  if (version === undefined) return versions.reduce((a, b) => (b.version_number > a.version_number ? b : a));
  const found = versions.find((v) => v.version_number === version);
  if (!found) {
    const known = versions.map((v) => v.version_number).sort((a, b) => a - b);
    throw new ToolError(
      "invalid_argument",
      `Template "${template}" has no version ${version}; it has ${known.join(", ")}.`,
    );
  }
  return found;
}

/** Describes the input schema briefly: one line per top-level property, then an example call. */
export function describeTemplateInput(v: TemplateVersion, template = v.name): string {
  const schema = v.input_schema as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return "No input properties published.";
  const required = new Set(schema.required ?? []);
  const lines = props.map(([name, p]) => {
    const type = typeof p.type === "string" ? p.type : "any";
    const ex =
      Array.isArray(p.examples) && p.examples.length > 0 ? ` Example: ${JSON.stringify(p.examples[0])}.` : "";
    const desc = typeof p.description === "string" ? ` ${p.description}` : "";
    return `- "${name}" (${type}${required.has(name) ? ", required" : ""}):${desc}${ex}`;
  });
  lines.push(exampleLine("run_template", (params) => ({ template, params }), templateExampleParams(v)));
  return lines.join("\n");
}

/** Throws `invalid_argument` naming each problem, with the schema's own descriptions. */
export function assertTemplateParams(v: TemplateVersion, params: unknown, label = "params"): string[] {
  const converted = templateInputSchema(v.input_schema);
  const result = converted.schema.safeParse(params);
  if (result.success) return converted.notes;
  const lines = templateIssues(result.error, v.input_schema).map((l) => l.replace(/^params/, label));
  throw new ToolError(
    "invalid_argument",
    [
      `The ${label} for template "${v.name}" v${v.version_number} are wrong (nothing was run):`,
      ...lines.map((l) => `- ${l}`),
      "",
      "It takes:",
      describeTemplateInput(v),
    ].join("\n"),
    { fields: lines },
  );
}
