/**
 * Which upstream work (tasks, batches, crawls) each principal started through this server. Under
 * the deployment's shared API key every caller reaches the same account upstream, so the server
 * itself must keep them apart: `ownedClient` records every id a call creates for its principal and
 * answers reads of any other id — another principal's or one that never existed — with the same
 * "not found" (a crawl's cancel too), and filters the upstream task and crawl lists to the
 * principal's own ids. A caller that
 * brought its own key needs none of this (the key's account is its own). The store is this
 * process's (`MemoryOwnership`) or the fleet's (`RedisOwnership` in ./http/redis-ownership.ts).
 */
import type { WebDataClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import type { Principal } from "../principal.js";

/** `link`: a `webdata://` resource a call returned (src/server/resources.ts). */
export type WorkKind = "task" | "batch" | "crawl" | "link";

export interface WorkRef {
  kind: WorkKind;
  id: string;
}

export interface OwnershipStore {
  /** Records that `principal` owns these (kept `ttlMs`, the newest `maxPerPrincipal` at most). */
  claim(owner: string, refs: readonly WorkRef[]): Promise<void>;
  /** Of `refs`, those `owner` owns (in order). */
  owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]>;
  close(): Promise<void>;
}

export interface OwnershipLimits {
  /** How long a claim is kept; default 7 days. */
  ttlMs: number;
  /** Claims kept per principal (oldest out first); default 10,000. */
  maxPerPrincipal: number;
}

export const DEFAULT_OWNERSHIP_LIMITS: OwnershipLimits = {
  ttlMs: 7 * 24 * 3_600_000,
  maxPerPrincipal: 10_000,
};

export const refKey = (ref: WorkRef): string => `${ref.kind}:${ref.id}`;

export class MemoryOwnership implements OwnershipStore {
  /** Per owner: ref key → expiry (ms epoch), oldest claim first. */
  readonly #claims = new Map<string, Map<string, number>>();
  readonly #limits: OwnershipLimits;
  readonly #now: () => number;

  constructor(limits: OwnershipLimits = DEFAULT_OWNERSHIP_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  async claim(owner: string, refs: readonly WorkRef[]): Promise<void> {
    const mine = this.#claims.get(owner) ?? new Map<string, number>();
    this.#claims.set(owner, mine);
    for (const ref of refs) {
      mine.delete(refKey(ref));
      mine.set(refKey(ref), this.#now() + this.#limits.ttlMs);
    }
    for (const key of mine.keys()) {
      if (mine.size <= this.#limits.maxPerPrincipal) break;
      mine.delete(key);
    }
  }

  async owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]> {
    const mine = this.#claims.get(owner);
    const now = this.#now();
    return refs.filter((ref) => (mine?.get(refKey(ref)) ?? 0) > now);
  }

  async close(): Promise<void> {
    this.#claims.clear();
  }
}

/** What every read of work the principal does not own answers: the same as an unknown id. */
export function notFound(ref: WorkRef): ApiError {
  return new ApiError({
    code: "not_found",
    status: 404,
    message: `404 Not Found: no ${ref.kind} ${ref.id} of yours; check the id (get_task with no id lists your recent tasks).`,
  });
}

type Reads = Pick<
  WebDataClient,
  | "getTask"
  | "getTaskResults"
  | "getBatch"
  | "getBatchProgress"
  | "getCrawl"
  | "listTasks"
  | "listBatches"
  | "listCrawls"
  | "cancelCrawl"
>;
type Submits = Pick<
  WebDataClient,
  | "extract"
  | "extractAsync"
  | "extractBatch"
  | "runAgent"
  | "runAgentAsync"
  | "agentsAsync"
  | "agentsBatch"
  | "runTemplate"
  | "templatesBatch"
  | "crawl"
  | "mapAsync"
  | "mediaAsync"
>;

/**
 * `client` as one principal sees it under the shared key: submissions claim what they create,
 * reads of work not claimed by the principal are "not found" (as is any upstream 404 of them),
 * and listings show the principal's own work only. Ids seen in this call are remembered, so a
 * call's own polling costs the store nothing.
 */
export function ownedClient(
  client: WebDataClient,
  principal: Principal,
  store: OwnershipStore,
): WebDataClient {
  const known = new Set<string>();
  const claim = async (refs: WorkRef[]) => {
    const fresh = refs.filter((ref) => ref.id && !known.has(refKey(ref)));
    for (const ref of fresh) known.add(refKey(ref));
    if (fresh.length > 0) await store.claim(principal.id, fresh);
  };
  const check = async (ref: WorkRef) => {
    if (known.has(refKey(ref))) return;
    const [mine] = await store.owned(principal.id, [ref]);
    if (!mine) throw notFound(ref);
    known.add(refKey(ref));
  };
  const read = async <T>(ref: WorkRef, run: () => Promise<T>): Promise<T> => {
    await check(ref);
    try {
      return await run();
    } catch (error) {
      throw error instanceof ApiError && error.status === 404 ? notFound(ref) : error;
    }
  };
  const submits = ownSubmits(client, claim);
  const reads = ownReads(client, principal, store, read, claim);
  const overrides: Partial<WebDataClient> = { ...submits, ...reads };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && prop in overrides) return overrides[prop as keyof WebDataClient];
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

type Claim = (refs: WorkRef[]) => Promise<void>;
type Read = <T>(ref: WorkRef, run: () => Promise<T>) => Promise<T>;

const task = (id: string | undefined): WorkRef[] => (id ? [{ kind: "task", id }] : []);
const tasksOf = (tasks: ReadonlyArray<{ id?: string }> | undefined): WorkRef[] =>
  (tasks ?? []).flatMap((t) => task(t.id));

function ownSubmits(c: WebDataClient, claim: Claim): Submits {
  const taskId = async <T extends { task_id: string }>(p: Promise<T>) => {
    const answer = await p;
    await claim(task(answer.task_id));
    return answer;
  };
  const result = async <T extends { task_id?: string; task?: { id?: string } }>(p: Promise<T>) => {
    const answer = await p;
    await claim(task(answer.task_id ?? answer.task?.id));
    return answer;
  };
  const batch = async <T extends { batch_id: string; tasks?: ReadonlyArray<{ id?: string }> }>(
    p: Promise<T>,
  ) => {
    const answer = await p;
    await claim([{ kind: "batch", id: answer.batch_id }, ...tasksOf(answer.tasks)]);
    return answer;
  };
  return {
    extract: (body, opts) => result(c.extract(body, opts)),
    runAgent: (body, opts) => result(c.runAgent(body, opts)),
    runTemplate: (body, opts) => result(c.runTemplate(body, opts)),
    extractAsync: (body, opts) => taskId(c.extractAsync(body, opts)),
    runAgentAsync: (body, opts) => taskId(c.runAgentAsync(body, opts)),
    agentsAsync: (body, opts) => taskId(c.agentsAsync(body, opts)),
    mapAsync: (body, opts) => taskId(c.mapAsync(body, opts)),
    mediaAsync: (body, opts) => taskId(c.mediaAsync(body, opts)),
    extractBatch: (body, opts) => batch(c.extractBatch(body, opts)),
    agentsBatch: (body, opts) => batch(c.agentsBatch(body, opts)),
    templatesBatch: (body, opts) => batch(c.templatesBatch(body, opts)),
    crawl: async (body, opts) => {
      const answer = await c.crawl(body, opts);
      await claim([{ kind: "crawl", id: answer.crawl_id }]);
      return answer;
    },
  };
}

function ownReads(
  c: WebDataClient,
  principal: Principal,
  store: OwnershipStore,
  read: Read,
  claim: Claim,
): Reads {
  return {
    getTask: (id, opts) => read({ kind: "task", id }, () => c.getTask(id, opts)),
    getTaskResults: (id, opts) => read({ kind: "task", id }, () => c.getTaskResults(id, opts)),
    getBatchProgress: (id, opts) => read({ kind: "batch", id }, () => c.getBatchProgress(id, opts)),
    // The tasks of an owned batch or crawl are the principal's too (read with get_task).
    getBatch: (id, opts) =>
      read({ kind: "batch", id }, async () => {
        const detail = await c.getBatch(id, opts);
        await claim(tasksOf(detail.tasks));
        return detail;
      }),
    getCrawl: (id, opts) =>
      read({ kind: "crawl", id }, async () => {
        const status = await c.getCrawl(id, opts);
        await claim(tasksOf(status.crawl.tasks));
        return status;
      }),
    listTasks: async (query, opts) => {
      const list = await c.listTasks(query, opts);
      const mine = await store.owned(principal.id, tasksOf(list.tasks));
      const ids = new Set(mine.map((ref) => ref.id));
      return {
        ...list,
        tasks: list.tasks.filter((t) => t.id !== undefined && ids.has(t.id)),
        total: undefined,
      };
    },
    // Ending a crawl is a write, but it is allowed on the same terms as a read: the owner's only.
    cancelCrawl: (id, opts) => read({ kind: "crawl", id }, () => c.cancelCrawl(id, opts)),
    listCrawls: async (query, opts) => {
      const list = await c.listCrawls(query, opts);
      const refs = list.data.map((crawl) => ({ kind: "crawl" as const, id: crawl.crawl_id }));
      const ids = new Set((await store.owned(principal.id, refs)).map((ref) => ref.id));
      return {
        ...list,
        data: list.data.filter((crawl) => ids.has(crawl.crawl_id)),
        pagination: list.pagination && { ...list.pagination, total: undefined },
      };
    },
    listBatches: async (opts) => {
      const list = await c.listBatches(opts);
      const refs = list.batches.flatMap((b) =>
        b.batch_id ? [{ kind: "batch" as const, id: b.batch_id }] : [],
      );
      const ids = new Set((await store.owned(principal.id, refs)).map((ref) => ref.id));
      return {
        ...list,
        batches: list.batches.filter((b) => b.batch_id !== undefined && ids.has(b.batch_id)),
      };
    },
  };
}
