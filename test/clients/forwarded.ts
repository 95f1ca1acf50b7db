/**
 * What a framework hands its model after a tool call, read the same way for every framework: the
 * strings in it (JSON strings inside it opened up too), and its tokens split into the part that
 * came from the MCP result's text content and the part that came from its structuredContent.
 */
import { encode } from "gpt-tokenizer";

/** One MCP tool result as the framework received it (when it lets us see it). */
export interface McpResult {
  content?: Array<{ type: string; text?: string; uri?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

export interface Forwarded {
  /** What reaches the model as the tool's result: a message's content, a part, a string. */
  toModel: unknown;
  /** The MCP result behind it, for the token split. */
  mcp?: McpResult;
}

/** The model-facing payload as text, the way a provider would put it into its request. */
export const serialized = (f: Forwarded): string =>
  typeof f.toModel === "string" ? f.toModel : JSON.stringify(f.toModel);

const tokens = (text: string) => encode(text).length;

/** Every value in `value`, JSON inside strings opened up (a framework may stringify a result). */
export function* walk(value: unknown): Generator<unknown> {
  yield value;
  if (typeof value === "string") {
    const t = value.trim();
    if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
      try {
        yield* walk(JSON.parse(t));
      } catch {
        // not JSON after all
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) yield* walk(v);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) yield* walk(v);
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface TokenSplit {
  text: number;
  structured: number;
  total: number;
}

/**
 * Tokens of what reached the model: `total` of the whole payload; `text` of the MCP text content
 * when it is in the payload; `structured` of the structuredContent when it is in the payload
 * (as an object or as a JSON string).
 */
export function tokenSplit(f: Forwarded): TokenSplit {
  const total = tokens(serialized(f));
  const values = [...walk(f.toModel)];
  const texts = (f.mcp?.content ?? []).flatMap((c) => (c.type === "text" && c.text ? [c.text] : []));
  const text = texts
    .filter((t) => values.some((v) => typeof v === "string" && v.includes(t)))
    .reduce((n, t) => n + tokens(t), 0);
  const sc = f.mcp?.structuredContent;
  const structured =
    sc !== undefined && values.some((v) => typeof v === "object" && v !== null && sameJson(v, sc))
      ? tokens(JSON.stringify(sc))
      : 0;
  return { text, structured, total };
}

/** How often `needle` occurs in the payload as the model receives it. */
export function occurrences(f: Forwarded, needle: string): number {
  return serialized(f).split(needle).length - 1;
}

/** The distinct `webdata://` page URIs in the payload as the model receives it. */
export const pageLinks = (f: Forwarded): string[] => [
  ...new Set(serialized(f).match(/webdata:\/\/task\/[0-9a-f-]{36}/g) ?? []),
];

/** How a link reached the model: in a text, as a resource_link item, as a file block (LangChain). */
export function linkForms(f: Forwarded, uri: string): string[] {
  const forms = new Set<string>();
  for (const v of walk(f.toModel)) {
    if (typeof v === "string" && v !== uri && v.includes(uri) && !v.trim().startsWith("{")) forms.add("text");
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    const item = v as { type?: string; uri?: string; url?: string };
    if (item.uri === uri)
      forms.add(item.type === "resource_link" ? "resource_link item" : `${item.type} item`);
    if (item.url === uri) forms.add(`${item.type} block`);
  }
  return [...forms];
}
