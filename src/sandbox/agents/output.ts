/**
 * Deterministic values for an output schema: the same agent and params always give the same
 * output, and a different page (or any other param) gives different values.
 */
import type { OutputFragment } from "../../api/schemas.js";
import { seeded } from "../hash.js";

const WORDS = [
  "alpine",
  "harbor",
  "cedar",
  "summit",
  "meadow",
  "granite",
  "willow",
  "aurora",
  "canyon",
  "delta",
];
const MAX_DEPTH = 6;

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function stringFor(field: string, fragment: OutputFragment, random: Random, context: string): string {
  const word = pick(random, WORDS);
  const number = Math.floor(random() * 9000) + 1000;
  if (fragment.format === "uri" || /url|link|website|avatar|image/i.test(field)) {
    return `https://${context}/${field.replace(/_/g, "-")}/${word}-${number}`;
  }
  if (fragment.format === "date-time" || /_at$|time/i.test(field)) {
    return new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 300) * 86_400_000).toISOString();
  }
  if (fragment.format === "date" || /date/i.test(field)) {
    return new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 300) * 86_400_000)
      .toISOString()
      .slice(0, 10);
  }
  if (/currency/i.test(field)) return pick(random, ["USD", "EUR", "GBP"]);
  const label = field.replace(/_/g, " ");
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} ${word} ${number}`;
}

function numberFor(field: string, fragment: OutputFragment, random: Random): number {
  const min = fragment.minimum ?? 0;
  const max = fragment.maximum ?? (/price|salary/i.test(field) ? 500 : 10_000);
  const value = min + random() * (max - min);
  return fragment.maximum !== undefined && fragment.maximum <= 5
    ? Math.round(value * 10) / 10
    : Math.round(value);
}

function valueFor(
  field: string,
  fragment: OutputFragment,
  random: Random,
  context: string,
  depth: number,
): unknown {
  switch (fragment.type) {
    case "number":
    case "integer":
      return numberFor(field, fragment, random);
    case "boolean":
      return random() < 0.5;
    case "array": {
      if (!fragment.items || depth >= MAX_DEPTH) return [];
      const count = 3 + Math.floor(random() * 3);
      return Array.from({ length: count }, () =>
        valueFor(field, fragment.items!, random, context, depth + 1),
      );
    }
    case "object":
      return objectFor(fragment.properties ?? {}, random, context, depth + 1);
    default:
      return stringFor(field, fragment, random, context);
  }
}

function objectFor(schema: Record<string, OutputFragment>, random: Random, context: string, depth: number) {
  const out: Record<string, unknown> = {};
  for (const [field, fragment] of Object.entries(schema)) {
    out[field] = depth >= MAX_DEPTH ? null : valueFor(field, fragment, random, context, depth);
  }
  return out;
}

/** Output for `schema`, seeded by `seed`; URLs are under `host`. */
export function generateOutput(schema: Record<string, OutputFragment>, seed: string, host: string) {
  return objectFor(schema, seeded(seed), host, 0);
}
