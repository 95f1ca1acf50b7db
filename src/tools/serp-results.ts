/**
 * Reading a SERP answer: organic results reduced to position/title/url/snippet. Parsed entities
 * come keyed by type: `entities.OrganicResult[]` (the SDK's examples, both generations) or
 * `entities.organic` (the spec's reading); the other entity types are summarised by type.
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";

export const resultItem = buildOnce(() =>
  z.object({
    position: z.number(),
    title: z.string(),
    url: z.string(),
  }),
);
export type SerpItem = z.infer<ReturnType<typeof resultItem>> & { snippet?: string };

/** Snippets are previews: cut at a word boundary so ten results stay small. */
const SNIPPET_CHARS = 140;
function shorten(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A SERP answer, or a task result holding one. */
interface WithParsing {
  data?: { parsing?: unknown };
}

export const entitiesOf = (response: WithParsing): Record<string, unknown> => {
  const entities = (response.data?.parsing as { entities?: unknown } | undefined)?.entities;
  return typeof entities === "object" && entities !== null && !Array.isArray(entities)
    ? (entities as Record<string, unknown>)
    : {};
};

/** The key of the organic results among the entity types: `OrganicResult`, `organic`, or the like. */
export function organicKey(entities: Record<string, unknown>): string | undefined {
  if (Array.isArray(entities.OrganicResult)) return "OrganicResult";
  if (Array.isArray(entities.organic)) return "organic";
  return Object.keys(entities).find((k) => /^organic/i.test(k) && Array.isArray(entities[k]));
}

/** "RelatedSearch (4), TopStory (2)": the entity types besides the organic results, by count. */
export function otherTypes(entities: Record<string, unknown>, skip: string | undefined): string {
  return Object.entries(entities)
    .filter(([k]) => k !== skip)
    .map(([k, v]) => (Array.isArray(v) ? `${k} (${v.length})` : k))
    .join(", ");
}

export function organic(response: WithParsing): SerpItem[] {
  const entities = entitiesOf(response);
  const key = organicKey(entities);
  const list = key === undefined ? undefined : entities[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, i) => {
    if (typeof raw !== "object" || raw === null) return [];
    const r = raw as Record<string, unknown>;
    if (typeof r.url !== "string" && typeof r.link !== "string") return [];
    const item: SerpItem = {
      position: typeof r.position === "number" ? r.position : i + 1,
      title: typeof r.title === "string" ? r.title : "",
      url: (r.url ?? r.link) as string,
    };
    const snippet = r.snippet ?? r.description;
    if (typeof snippet === "string" && snippet) item.snippet = shorten(snippet.replace(/\s+/g, " ").trim());
    return [item];
  });
}

/** "1. Title — url\n   snippet" lines of a result list. */
export const resultLines = (results: readonly SerpItem[]): string[] =>
  results.map((r) => `${r.position}. ${r.title} — ${r.url}${r.snippet ? `\n   ${r.snippet}` : ""}`);
