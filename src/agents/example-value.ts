/**
 * Values for a param that a catalog gives no usable example for, built from its schema (the JSON
 * Schema keywords enum, const, format, pattern, lengths, ranges, items, properties) and from hints
 * (its name, the agent's own site). `valueCandidates` lists plausible values, the most natural
 * first; the caller keeps the first one its own validation accepts, so an example the server
 * shows is one the server takes. Deterministic: the same schema always gives the same values.
 */
import { patternSamples } from "./pattern-sample.js";

/** The JSON Schema keywords read here (an agent's input property is brought to the same shape). */
export interface ValueNode {
  type?: unknown;
  enum?: unknown;
  const?: unknown;
  format?: unknown;
  pattern?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
  multipleOf?: unknown;
  items?: unknown;
  minItems?: unknown;
  maxItems?: unknown;
  uniqueItems?: unknown;
  properties?: unknown;
  required?: unknown;
  examples?: unknown;
  default?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
}

export interface ValueHints {
  /** The param's name: `url`, `country`, `email`… say what kind of value reads naturally. */
  name: string;
  /** The agent's or template's own site (a host name); URLs and e-mail addresses point there. */
  host?: string;
  /** Checks a value against a nested node (an array's items, an object's members) as it is built. */
  accepts?: (node: ValueNode, value: unknown) => boolean;
}

const FALLBACK_HOST = "example.com";
const DATE = "2026-01-15";
const NEXT_DAY = "2026-01-16";
const MAX_CANDIDATES = 64;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `shop.example.com` from a domain as catalogs write it (`https://www.shop.example.com/`, …). */
export function hostOf(domain: string | null | undefined): string | undefined {
  const host = (domain ?? "")
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .toLowerCase();
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : undefined;
}

/** The node's type: the first non-null one of a list; guessed from its keywords when absent. */
function typeOf(node: ValueNode): string | undefined {
  const t = Array.isArray(node.type) ? node.type.find((x) => x !== "null") : node.type;
  if (typeof t === "string") return t;
  if (isObj(node.properties)) return "object";
  if (node.items !== undefined) return "array";
  return undefined;
}

/** What the node itself offers: its examples, default, const and enum values. */
function given(node: ValueNode): unknown[] {
  return [
    ...(Array.isArray(node.examples) ? node.examples : []),
    ...(node.default !== undefined && node.default !== null ? [node.default] : []),
    ...(node.const !== undefined ? [node.const] : []),
    ...(Array.isArray(node.enum) ? node.enum : []),
  ];
}

const FORMATS: Record<string, (host: string) => string[]> = {
  uri: (h) => [`https://${h}/`],
  url: (h) => [`https://${h}/`],
  "uri-reference": (h) => [`https://${h}/`],
  iri: (h) => [`https://${h}/`],
  email: (h) => [`info@${h}`],
  "idn-email": (h) => [`info@${h}`],
  hostname: (h) => [h],
  "idn-hostname": (h) => [h],
  date: () => [DATE],
  "date-time": () => [`${DATE}T09:00:00Z`],
  time: () => ["09:00:00Z", "09:00:00"],
  duration: () => ["P1D"],
  uuid: () => ["00000000-0000-4000-8000-000000000000"],
  ipv4: () => ["192.0.2.1"],
  ipv6: () => ["2001:db8::1"],
};

/** Values that the name suggests (`url` → a page of the agent's site, `country` → "us"…); none for an id. */
function byName(name: string, host: string): string[] {
  const n = name.toLowerCase();
  if (/(^|_)ids?$/.test(n)) return [];
  const out: string[] = [];
  const word = (w: string) => new RegExp(`(^|_)(${w})($|_)`).test(n);
  if (/url|uri|link|href|website/.test(n)) out.push(`https://${host}/`);
  if (/domain|host/.test(n)) out.push(host, `https://${host}/`);
  if (/e_?mail/.test(n)) out.push(`info@${host}`);
  if (word("country|region|market|gl")) out.push("us", "US", "usa");
  if (word("lang|language|locale|hl")) out.push("en", "en-US");
  if (word("currency")) out.push("USD");
  if (word("end|until|to|check_out|checkout|end_date|departure")) out.push(NEXT_DAY);
  if (word("date|day|since|from|start|check_in|checkin|start_date|arrival")) out.push(DATE);
  if (word("time|datetime|timestamp")) out.push(`${DATE}T09:00:00Z`);
  if (word("phone|tel")) out.push("+15555550100");
  if (word("zip|postal|postcode|zip_code|postal_code")) out.push("10001");
  if (word("city|location|place|address|destination")) out.push("New York");
  return out;
}

/** Values of well-known shapes, tried on a pattern before strings generated for it. */
const SHAPED = (host: string) => [
  DATE,
  `${DATE}T09:00:00Z`,
  "09:00",
  "00000000-0000-4000-8000-000000000000",
  `info@${host}`,
  `https://${host}/`,
  host,
];

/** `text` padded or cut to the length bounds. */
function fitLength(text: string, min: number | undefined, max: number | undefined): string {
  let s = text;
  if (min !== undefined && s.length < min) s = s.padEnd(min, "x");
  if (max !== undefined && s.length > max) s = s.slice(0, Math.max(0, max));
  return s;
}

function strings(node: ValueNode, hints: ValueHints): unknown[] {
  const host = hints.host ?? FALLBACK_HOST;
  const min = num(node.minLength);
  const max = num(node.maxLength);
  const format = typeof node.format === "string" ? FORMATS[node.format.toLowerCase()] : undefined;
  const pattern = typeof node.pattern === "string" ? node.pattern : undefined;
  const natural = [...(format?.(host) ?? []), ...byName(hints.name, host)];
  const samples = pattern ? [...SHAPED(host), ...patternSamples(pattern, `${hints.name}:${pattern}`)] : [];
  const plain = ["example", hints.name.replace(/[^a-z0-9]+/gi, " ").trim() || "example"];
  return [...natural, ...samples, ...plain].flatMap((s) => [s, fitLength(s, min, max)]);
}

function numbers(node: ValueNode, integer: boolean): number[] {
  const step = integer ? 1 : 0.5;
  const exMin = num(node.exclusiveMinimum);
  const exMax = num(node.exclusiveMaximum);
  const lo = num(node.minimum) ?? (exMin !== undefined ? exMin + step : undefined);
  const hi = num(node.maximum) ?? (exMax !== undefined ? exMax - step : undefined);
  const clamp = (v: number) => Math.min(hi ?? v, Math.max(lo ?? v, v));
  const round = (v: number) => (integer ? Math.ceil(v) : v);
  const out = [clamp(1), lo, hi, clamp(0)].filter((v): v is number => v !== undefined).map(round);
  const multiple = num(node.multipleOf);
  if (multiple && multiple > 0) out.unshift(...out.map((v) => Math.ceil(v / multiple) * multiple));
  return out;
}

function arrays(node: ValueNode, hints: ValueHints): unknown[][] {
  const min = num(node.minItems) ?? 0;
  const max = num(node.maxItems);
  const size = Math.max(1, min);
  if (max !== undefined && max < size) return max <= 0 ? [[]] : [];
  const itemNode: ValueNode = isObj(node.items) ? node.items : {};
  const items = valueCandidates(itemNode, hints)
    .filter((v) => hints.accepts?.(itemNode, v) ?? true)
    .slice(0, 8);
  const out: unknown[][] = [];
  if (node.uniqueItems === true) {
    const distinct = [...new Map(items.map((v) => [JSON.stringify(v), v])).values()];
    if (distinct.length >= size) out.push(distinct.slice(0, size));
  } else {
    for (const item of items) out.push(Array.from({ length: size }, () => item));
  }
  if (min === 0) out.push([]);
  return out;
}

function objects(node: ValueNode, hints: ValueHints): Record<string, unknown>[] {
  const props = isObj(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required.filter((r) => typeof r === "string") : [];
  const out: Record<string, unknown> = {};
  for (const key of required) {
    const sub: ValueNode = isObj(props[key]) ? props[key] : {};
    const value = valueCandidates(sub, { ...hints, name: key }).find((v) => hints.accepts?.(sub, v) ?? true);
    if (value !== undefined) out[key] = value;
  }
  return [out];
}

/** Plausible values for the node, most natural first (duplicates removed; at most 64). */
export function valueCandidates(node: ValueNode, hints: ValueHints): unknown[] {
  const branches = [node.anyOf, node.oneOf].flatMap((b) => (Array.isArray(b) ? b.filter(isObj) : []));
  let built: unknown[];
  // An enum or const allows nothing else.
  if (Array.isArray(node.enum) || node.const !== undefined) built = [];
  else
    switch (typeOf(node)) {
      case "string":
        built = strings(node, hints);
        break;
      case "integer":
        built = numbers(node, true);
        break;
      case "number":
        built = numbers(node, false);
        break;
      case "boolean":
        built = [true, false];
        break;
      case "array":
        built = arrays(node, hints);
        break;
      case "object":
        built = objects(node, hints);
        break;
      case "null":
        built = [null];
        break;
      default:
        built = branches.length > 0 ? [] : [...strings(node, hints), 1, true];
    }
  const all = [...given(node), ...built, ...branches.flatMap((b) => valueCandidates(b, hints))];
  const seen = new Set<string>();
  return all
    .filter((v) => {
      const key = JSON.stringify(v) ?? "undefined";
      if (v === undefined || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_CANDIDATES);
}
