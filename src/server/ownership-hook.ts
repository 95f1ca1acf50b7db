/**
 * The ownership rule of every route, from the route table's data (`work` in src/api/routes.ts),
 * as one hook in the client's send path (`WebDataClient.withHook`): for one principal under the
 * shared key,
 * - every id a route mints is claimed for the principal (a read mints only under work it owns:
 *   the tasks of its batch, the runs of its job);
 * - every id a route takes is checked first: another principal's reads as unknown, exactly like
 *   a missing one (the same 404 `not_found`, and an upstream 404 of it is answered the same); an
 *   account-level object made outside this server (`ACCOUNT_KINDS`: jobs, their runs and
 *   artifacts, templates, research agents, claimed by no one) is read and used by everyone, and
 *   changed, ended or deleted by no one (that needs a key of one's own);
 * - every listing shows the principal's own work, and the account-level objects made outside
 *   this server; totals that counted the rest are dropped (`visibleTo`, also what a tool lists
 *   from a shared cache: the agent catalog in `list_agents`).
 * Ids seen in this call are remembered, so a call's own polling costs the store nothing.
 */
import type { WebDataClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import type { RouteCall, RouteHook } from "../api/route-hook.js";
import { ACCOUNT_KINDS, dropAt, filterAt, type Taken, valuesAt, type WorkRule } from "../api/work.js";
import type { Principal } from "../principal.js";
import { type OwnershipStore, refKey, type WorkRef } from "./ownership.js";

const HINTS: Partial<Record<WorkRef["kind"], string>> = {
  task: "get_task with no id lists your recent tasks",
  batch: "get_task with no id lists your recent tasks",
  crawl: "get_task with no id lists your recent work",
  job: "job_runs with no id lists the jobs you can see",
  run: "job_runs with a job_id lists its runs",
  template: "list_agents lists the templates you can use",
  research_agent: "list_research_agents lists the agents you can use",
};

/** What every read of work the principal does not own answers: the same as an unknown id. */
export function notFound(ref: WorkRef): ApiError {
  const hint = HINTS[ref.kind] ?? "pass it exactly as the tool that made it returned it";
  return new ApiError({
    code: "not_found",
    status: 404,
    message: `404 Not Found: no ${ref.kind.replace("_", " ")} ${ref.id} of yours; check the id (${hint}).`,
  });
}

interface TakenRef extends WorkRef {
  change: boolean;
}

function takenRefs(takes: readonly Taken[] | undefined, call: RouteCall): TakenRef[] {
  return (takes ?? []).flatMap((t) => {
    const ids =
      t.param !== undefined
        ? valuesAt(call.input.params ?? {}, t.param)
        : t.body !== undefined
          ? valuesAt(call.input.body, t.body)
          : [];
    return ids.map((id) => ({ kind: t.kind, id, change: t.change === true }));
  });
}

const isAccount = (ref: WorkRef) => ref.kind !== "link" && ACCOUNT_KINDS.has(ref.kind);

/**
 * Of these ids of one kind, those `principal` sees: its own, and for an account kind those no one
 * claimed (made outside this server). The one listing rule: the hook's listings and what a tool
 * lists from a cache the key's callers share (`ToolContext.visible`, e.g. `list_agents`).
 */
export function visibleTo(
  principal: Principal,
  store: OwnershipStore,
): (kind: WorkRef["kind"], ids: readonly string[]) => Promise<Set<string>> {
  return async (kind, ids) => {
    const refs = ids.map((id) => ({ kind, id }));
    const own = await store.owned(principal.id, refs);
    const seen = new Set(own.map((ref) => ref.id));
    if (isAccount({ kind, id: "" })) {
      const rest = refs.filter((ref) => !seen.has(ref.id));
      const claimed = new Set((await store.claimed(rest)).map((ref) => ref.id));
      for (const ref of rest) if (!claimed.has(ref.id)) seen.add(ref.id);
    }
    return seen;
  };
}

/** The hook that keeps `principal`'s work its own (see the module comment). */
export function ownershipHook(principal: Principal, store: OwnershipStore): RouteHook {
  const mine = new Set<string>();
  const claim = async (refs: WorkRef[]) => {
    const fresh = refs.filter((ref) => ref.id && !mine.has(refKey(ref)));
    for (const ref of fresh) mine.add(refKey(ref));
    if (fresh.length > 0) await store.claim(principal.id, fresh);
  };
  /** Refs neither the principal's nor usable as made outside this server: another's (or, for a change, anyone's but its own). */
  const refused = async (refs: TakenRef[]): Promise<{ refused?: WorkRef; allMine: boolean }> => {
    const unknown = refs.filter((ref) => !mine.has(refKey(ref)));
    const owned = new Set((await store.owned(principal.id, unknown)).map(refKey));
    for (const key of owned) mine.add(key);
    const others = unknown.filter((ref) => !owned.has(refKey(ref)));
    const shared = others.filter((ref) => isAccount(ref) && !ref.change);
    const claimed = new Set((await store.claimed(shared)).map(refKey));
    const first = others.find((ref) => !shared.includes(ref) || claimed.has(refKey(ref)));
    return { ...(first ? { refused: first } : {}), allMine: others.length === 0 };
  };
  const visible = visibleTo(principal, store);
  const list = async (work: WorkRule, answer: unknown): Promise<unknown> => {
    const listing = work.lists;
    if (!listing) return answer;
    const ids = valuesAt(answer, `${listing.items}[].${listing.id}`);
    const keep = await visible(listing.kind, ids);
    const filtered = filterAt(answer, listing.items, (item) =>
      valuesAt(item, listing.id).some((id) => keep.has(id)),
    );
    return (listing.totals ?? []).reduce(dropAt, filtered);
  };

  return async (call, send) => {
    const work = call.route.work;
    if (work === "none") return send(call);
    const taken = takenRefs(work.takes, call);
    const { refused: refusedRef, allMine } = await refused(taken);
    // The same words whichever id was refused, and as an upstream 404: the most specific id taken.
    if (refusedRef) throw notFound(taken.at(-1) ?? refusedRef);
    let answer: unknown;
    try {
      answer = await send(call);
    } catch (error) {
      const last = taken.at(-1);
      throw last && error instanceof ApiError && error.status === 404 ? notFound(last) : error;
    }
    const mints = call.route.kind === "submission" || allMine ? (work.mints ?? []) : [];
    await claim(mints.flatMap((m) => valuesAt(answer, m.at).map((id) => ({ kind: m.kind, id }))));
    return list(work, answer);
  };
}

/** `client` as `principal` sees it under the shared key (see the module comment). */
export function ownedClient(
  client: WebDataClient,
  principal: Principal,
  store: OwnershipStore,
): WebDataClient {
  return client.withHook(ownershipHook(principal, store));
}
