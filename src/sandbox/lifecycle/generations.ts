/**
 * Template generations (§13, generation 1 §18): a generation is `queued` when created, `running`
 * on its first two reads and `success` (or `failed`, when a `task_error` fault was taken by the
 * creating request) from its third, so a client sees a few polls. On success its version is
 * added to the template store and the agent catalog. New templates get the given output schema,
 * or one string property per item the prompt lists ("title, price and rating"); a refinement
 * copies the source version and adds the prompt's items.
 */
import { randomUUID } from "node:crypto";
import type { TemplateVersion } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { versionAsAgent } from "./template-store.js";

export const POLLS_TO_FINISH = 3;
const MAX_FIELDS = 12;

export type GenerationInput =
  | {
      kind: "new";
      prompt: string;
      url: string;
      name?: string;
      input_schema?: Record<string, unknown>;
      output_schema?: Record<string, unknown>;
      metadata?: { description?: string; display_name?: string; tags?: string[] };
    }
  | { kind: "refine"; from: string; prompt: string };

interface Generation {
  id: string;
  input: GenerationInput;
  name: string;
  reads: number;
  fails: boolean;
  createdAt: string;
  sourceVersionId?: string;
  version?: TemplateVersion;
  completedAt?: string;
}

/** Items a prompt lists, as snake_case field names. */
export function promptFields(prompt: string): string[] {
  const tail = prompt.replace(/^.*?\b(extract|get|capture|add|with|include|including)\b/i, "");
  return [
    ...new Set(
      tail
        .split(/,|\band\b|;/i)
        .map((s) =>
          s
            .toLowerCase()
            .replace(/[^a-z0-9 ]/g, " ")
            .trim()
            .replace(/\b(the|a|an|its|their|each|of|from|page|field|fields)\b/g, " ")
            .trim()
            .replace(/\s+/g, "_"),
        )
        .filter((s) => /^[a-z][a-z0-9_]{0,40}$/.test(s)),
    ),
  ].slice(0, MAX_FIELDS);
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);

export class GenerationStore {
  private readonly generations = new Map<string, Generation>();

  constructor(private readonly state: SandboxState) {}

  /** Undefined when a refinement names a template that does not exist. */
  create(input: GenerationInput, fails: boolean): Generation | undefined {
    let name: string;
    let sourceVersionId: string | undefined;
    if (input.kind === "refine") {
      const source = this.state.templates.current(input.from);
      if (!source) return undefined;
      name = input.from;
      sourceVersionId = source.id;
    } else {
      name =
        input.name ?? this.freeName(`${slug(new URL(input.url).hostname.replace(/^www\./, ""))}_template`);
    }
    const generation: Generation = {
      id: randomUUID(),
      input,
      name,
      reads: 0,
      fails,
      createdAt: new Date().toISOString(),
      sourceVersionId,
    };
    this.generations.set(generation.id, generation);
    return generation;
  }

  /** One read: advances the generation, and finishes it on its POLLS_TO_FINISH-th read. */
  read(id: string): Generation | undefined {
    const g = this.generations.get(id);
    if (!g) return undefined;
    g.reads += 1;
    if (g.reads >= POLLS_TO_FINISH && !g.completedAt) {
      g.completedAt = new Date().toISOString();
      if (!g.fails) g.version = this.materialize(g);
    }
    return g;
  }

  status(g: Generation): string {
    if (g.completedAt) return g.fails ? "failed" : "success";
    return g.reads === 0 ? "queued" : "running";
  }

  /** The generation record; generation 1 names the template `agent_name`. */
  record(g: Generation, generation: 1 | 2) {
    const key = generation === 1 ? "agent_name" : "name";
    const status = this.status(g);
    const version = g.version && {
      ...g.version,
      ...(generation === 1 ? { agent_name: g.version.name, name: undefined } : {}),
    };
    return {
      id: g.id,
      status,
      [key]: g.name,
      created_at: g.createdAt,
      started_at: g.reads > 0 ? g.createdAt : null,
      completed_at: g.completedAt ?? null,
      source_version_id: g.sourceVersionId ?? null,
      error: status === "failed" ? "Generation failed: the example page could not be analysed" : null,
      summary: version ? this.summary(g, version) : null,
      generated_version_id: version?.id ?? null,
      generated_version: version ?? null,
    };
  }

  private summary(g: Generation, version: TemplateVersion): string {
    const fields = Object.keys((version.output_schema as { properties?: object }).properties ?? {});
    const verb = g.input.kind === "refine" ? "Refined" : "Created";
    return `${verb} template ${version.name} v${version.version_number} with ${fields.length} output fields: ${fields.join(", ")}.`;
  }

  private freeName(base: string): string {
    let name = base;
    for (let i = 2; this.state.templates.versionsOf(name); i++) name = `${base}_${i}`;
    return name;
  }

  private materialize(g: Generation): TemplateVersion {
    const store = this.state.templates;
    const previous = store.versionsOf(g.name) ?? [];
    const source = g.input.kind === "refine" ? store.current(g.input.from) : undefined;
    const properties: Record<string, unknown> = {
      ...((source?.output_schema as { properties?: object })?.properties ?? {}),
    };
    const given = g.input.kind === "new" ? g.input.output_schema : undefined;
    if (!given) for (const f of promptFields(g.input.prompt)) properties[f] ??= { type: "string" };
    const meta = g.input.kind === "new" ? g.input.metadata : undefined;
    const version: TemplateVersion = {
      id: randomUUID(),
      name: g.name,
      version_number: (previous[0]?.version_number ?? 0) + 1,
      created_at: new Date().toISOString(),
      input_schema: source?.input_schema ??
        (g.input.kind === "new" ? g.input.input_schema : undefined) ?? {
          type: "object",
          properties: { url: { type: "string", pattern: "^https?://", description: "Page URL" } },
          required: ["url"],
        },
      output_schema: given ?? { type: "object", properties },
      metadata: {
        ...(source?.metadata ?? {}),
        description: meta?.description ?? source?.metadata.description ?? g.input.prompt.slice(0, 200),
        display_name: meta?.display_name ?? source?.metadata.display_name ?? g.name.replace(/_/g, " "),
        tags: meta?.tags ?? source?.metadata.tags ?? [],
        ...(g.input.kind === "new" ? { domain: new URL(g.input.url).hostname } : {}),
      },
    };
    store.addVersion(version);
    this.state.catalog.add(versionAsAgent(version));
    return version;
  }
}
