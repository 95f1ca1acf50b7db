/**
 * The extract templates one sandbox holds: the built-in ones (templates/definitions.ts) plus those
 * its generations create, with their records (`published_version_id`, timestamps). A template's
 * current version is its published one when set, else its newest. Each generated version is also
 * entered in the agent catalog (generation 1's view of templates), so `GET /v1/agents` lists it.
 */
import { randomUUID } from "node:crypto";
import type { AgentDetail, InputProperty, OutputFragment, TemplateVersion } from "../../api/schemas.js";
import { TEMPLATES } from "../templates/definitions.js";

interface TemplateRecord {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  published_version_id?: string;
  display_name?: string;
  description?: string;
}

export class TemplateStore {
  private readonly versions = new Map<string, TemplateVersion[]>();
  private readonly records = new Map<string, TemplateRecord>();

  constructor() {
    for (const [name, versions] of TEMPLATES) {
      this.versions.set(name, [...versions]);
      const oldest = versions[versions.length - 1].created_at ?? "";
      const newest = versions[0].created_at ?? oldest;
      this.records.set(name, { id: randomUUID(), name, created_at: oldest, updated_at: newest });
    }
  }

  /** Versions of a template, newest first. */
  versionsOf(name: string): TemplateVersion[] | undefined {
    return this.versions.get(name);
  }

  /** The version runs use: the published one, else the newest. */
  current(name: string): TemplateVersion | undefined {
    const versions = this.versions.get(name);
    const published = this.records.get(name)?.published_version_id;
    return versions?.find((v) => v.id === published) ?? versions?.[0];
  }

  names(): string[] {
    return [...this.versions.keys()];
  }

  /** The template record of §13, with its published (or current) version. */
  record(name: string) {
    const record = this.records.get(name);
    if (!record) return undefined;
    return { ...record, published_version: this.current(name) ?? null };
  }

  /** Adds a version (a generation's result); creates the template when it is new. */
  addVersion(version: TemplateVersion): void {
    const list = this.versions.get(version.name) ?? [];
    this.versions.set(version.name, [version, ...list]);
    const now = new Date().toISOString();
    const record = this.records.get(version.name);
    if (record) record.updated_at = now;
    else
      this.records.set(version.name, {
        id: randomUUID(),
        name: version.name,
        created_at: now,
        updated_at: now,
      });
  }

  /** Applies checked changes to a record. */
  update(
    name: string,
    changes: Partial<Pick<TemplateRecord, "published_version_id" | "display_name" | "description">>,
  ) {
    const record = this.records.get(name);
    if (!record) return undefined;
    Object.assign(record, changes, { updated_at: new Date().toISOString() });
    return this.record(name);
  }

  delete(name: string): boolean {
    this.records.delete(name);
    return this.versions.delete(name);
  }
}

/** A template version seen as a generation-1 agent (its input schema's properties as params). */
export function versionAsAgent(version: TemplateVersion): AgentDetail {
  const m = version.metadata;
  const schema = version.input_schema as {
    properties?: Record<string, { type?: string; description?: string }>;
    required?: string[];
  };
  const input: InputProperty[] = Object.entries(schema.properties ?? {}).map(([name, p]) => ({
    name,
    required: schema.required?.includes(name) ?? false,
    type: p.type === "number" || p.type === "integer" || p.type === "boolean" ? p.type : "string",
    description: p.description ?? name,
    rules: [],
    examples: null,
    default: null,
    is_localization_param: false,
    is_pagination_param: false,
  }));
  return {
    name: version.name,
    is_public: false,
    managed_by: "self_managed",
    display_name: m.display_name ?? version.name,
    description: m.description ?? "",
    vertical: m.vertical ?? null,
    entity_type: m.entity_type ?? null,
    domain: m.domain ?? null,
    output_schema: ((version.output_schema as { properties?: unknown }).properties ?? {}) as Record<
      string,
      OutputFragment
    >,
    input_properties: input,
  };
}
