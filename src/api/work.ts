/**
 * What a route of the table (routes.ts) does to the account's work, as data: the ids it hands
 * out (`mints`), the ids it names (`takes`), the list it answers (`lists`). Over HTTP under the
 * shared key, the ownership hook (src/server/ownership.ts) reads these to claim, check and filter
 * for the caller's principal; the generation router remembers the minted ids; the webhook client
 * binds its callback to the first minted id. Paths into a body or an answer are dotted, `[]`
 * walks an array: `task_id`, `task.id`, `tasks[].id`, `[].name` (an answer that is an array).
 */

/** The kinds of work whose ids the service hands out. A media download is a task (its result names the file). */
export type WorkKind =
  | "task"
  | "batch"
  | "crawl"
  | "job"
  | "run"
  | "artifact"
  | "generation"
  | "research_agent"
  | "research_run"
  | "template";

export const WORK_KINDS: readonly WorkKind[] = [
  "task",
  "batch",
  "crawl",
  "job",
  "run",
  "artifact",
  "generation",
  "research_agent",
  "research_run",
  "template",
];

/**
 * Account-level objects: one made outside this server (claimed by no principal) is the
 * deployment's shared catalog, read and used by everyone; only its maker changes or deletes it.
 * Every other kind is one call's work: its maker's alone.
 */
export const ACCOUNT_KINDS: ReadonlySet<WorkKind> = new Set([
  "job",
  "run",
  "artifact",
  "template",
  "research_agent",
]);

/** An id the answer hands out: its kind and where it is in the answer. */
export interface Mint {
  kind: WorkKind;
  at: string;
}

/** An id the request names: a path parameter or a member of the body. */
export interface Taken {
  kind: WorkKind;
  param?: string;
  body?: string;
  /** The request changes, ends or deletes it (not only reads or uses it): its maker's only. */
  change?: true;
}

/** An answer that lists work: the array (`items`, "" for the answer itself), each item's id member, totals that no longer hold once filtered. */
export interface Listing {
  kind: WorkKind;
  items: string;
  id: string;
  totals?: readonly string[];
}

export interface WorkRule {
  mints?: readonly Mint[];
  takes?: readonly Taken[];
  lists?: Listing;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The string values at `path` (see the module comment); absent or non-string members give none. */
export function valuesAt(value: unknown, path: string): string[] {
  const parts = path === "" ? [] : path.split(".");
  let current: unknown[] = [value];
  for (const part of parts) {
    const many = part.endsWith("[]");
    const name = many ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const v of current) {
      const member = name === "" ? v : isObj(v) ? v[name] : undefined;
      if (many) {
        if (Array.isArray(member)) next.push(...member);
      } else if (member !== undefined) next.push(member);
    }
    current = next;
  }
  return current.flatMap((v) =>
    typeof v === "string" && v !== "" ? [v] : typeof v === "number" ? [String(v)] : [],
  );
}

/** `value` with the array at `path` ("" for `value` itself) narrowed to the items `keep` takes. */
export function filterAt(value: unknown, path: string, keep: (item: unknown) => boolean): unknown {
  if (path === "") return Array.isArray(value) ? value.filter(keep) : value;
  const [head, ...rest] = path.split(".");
  if (!isObj(value) || head === undefined || !(head in value)) return value;
  return { ...value, [head]: filterAt(value[head], rest.join("."), keep) };
}

/** `value` without the member at `path` (a total that no longer counts what is shown). */
export function dropAt(value: unknown, path: string): unknown {
  const [head, ...rest] = path.split(".");
  if (!isObj(value) || head === undefined || !(head in value)) return value;
  if (rest.length === 0) {
    const { [head]: _dropped, ...kept } = value;
    return kept;
  }
  return { ...value, [head]: dropAt(value[head], rest.join(".")) };
}
