/**
 * Which generation of the API (`/v1` or `/v2`) a call goes to. Every capability has a route per
 * generation in `routes.ts`; this decides the order in which they are tried.
 *
 * - `1` or `2` (WEBDATA_API_GENERATION): that generation only, where the capability has a route
 *   in it; a capability with a route in the other generation only uses that one.
 * - `auto`: generation 2 first. A generation-2 route answering 404 or 405 is tried once on its
 *   generation-1 route; when that one answers, the route is marked as missing for the rest of
 *   the process (one log line) and later calls go straight to generation 1.
 * - Ids: every id an answer hands out (task, batch, crawl, run, generation) is remembered with
 *   the generation that made it, so reads and resumes go to the same generation. The memory is
 *   bounded; an id it does not hold (a handle from before a restart, or one evicted) is read on
 *   the preferred generation first and on the other after a 404, and then remembered. Nothing
 *   is encoded in the ids the user sees.
 *
 * The memory is shared by the clients of the same base URL that share a client runtime
 * (`client-runtime.ts`: HTTP mode has one client per key and one runtime), like the rate limiter.
 */

import { LRUCache } from "lru-cache";
import type { ApiGeneration, GenerationSetting } from "./options.js";
import { sizedLru } from "./sized-lru.js";

export type Generation = ApiGeneration;
export type { GenerationSetting };

/** Ids remembered per base URL; the oldest are forgotten first. */
export const MAX_REMEMBERED_IDS = 20_000;
const MAX_MEMORIES = 64;

export type GenerationLog = (message: string) => void;

/** What one base URL's clients have learnt about its generations. */
export class GenerationMemory {
  /** Recently used ids first kept: the least recently used are forgotten. */
  readonly ids = sizedLru<string, Generation>(MAX_REMEMBERED_IDS);
  /** Routes whose generation-2 side answered 404/405 while generation 1 answered. */
  readonly missing = new Set<string>();
  /** Id reads where an unknown id was found on generation 1 after a 404 on generation 2. */
  readonly preferOne = new Set<string>();
  /** Routes whose generation-2 side answered: no more probing. */
  readonly confirmed = new Set<string>();
  /** Generation-2-only routes that answered 404/405 on a service lacking generation 2. */
  readonly gone = new Map<string, Error>();
  /** The call probing a route's generation-2 side, which concurrent calls of the route wait for. */
  readonly probes = new Map<string, Promise<unknown>>();

  remember(id: string, generation: Generation): void {
    this.ids.set(id, generation);
  }
}

/** The generation memories of one client runtime, by base URL (the least recently used dropped). */
export class GenerationMemories {
  readonly #byBase = new LRUCache<string, GenerationMemory>({ max: MAX_MEMORIES });

  for(base: string): GenerationMemory {
    let memory = this.#byBase.get(base);
    if (!memory) {
      memory = new GenerationMemory();
      this.#byBase.set(base, memory);
    }
    return memory;
  }
}

/** What the router needs to know of a route-table entry. */
export interface RouteSides {
  1?: unknown;
  2?: unknown;
  /** The path parameter holding the id that decides the generation (reads of one resource). */
  by?: string;
}

export const otherGeneration = (g: Generation): Generation => (g === 2 ? 1 : 2);

export class GenerationRouter {
  readonly setting: GenerationSetting;
  readonly #memory: GenerationMemory;
  readonly #log: GenerationLog;

  constructor(setting: GenerationSetting, memory: GenerationMemory, log: GenerationLog) {
    this.setting = setting;
    this.#memory = memory;
    this.#log = log;
  }

  /** The generations to try for one call, in order (the second only after a 404/405 on the first). */
  order(name: string, entry: RouteSides, id?: string): Generation[] {
    const has = (g: Generation) => entry[g] !== undefined;
    const available = ([2, 1] as const).filter(has);
    if (available.length < 2) return [...available];
    if (this.setting !== "auto") return [this.setting];
    if (id !== undefined) {
      const known = this.#memory.ids.get(id);
      if (known !== undefined) return [known];
      return this.#memory.preferOne.has(name) ? [1, 2] : [2, 1];
    }
    return this.#memory.missing.has(name) ? [1] : [2, 1];
  }

  /** Whether some generation-2 route of this service answered 404/405 where generation 1 answered. */
  lacksGeneration2(): boolean {
    return this.#memory.missing.size > 0 || this.#memory.preferOne.size > 0;
  }

  /** The answer of a generation-2-only route this service lacks: later calls get it unsent. */
  gone(name: string, error?: Error): Error | undefined {
    if (error && !this.#memory.gone.has(name)) this.#memory.gone.set(name, error);
    return this.#memory.gone.get(name);
  }

  /** Whether a failure of `tried` may be followed by the next generation in `order`. */
  mayFallBack(status: number | undefined, index: number, order: Generation[]): boolean {
    return this.setting === "auto" && index + 1 < order.length && (status === 404 || status === 405);
  }

  /** A call answered on `generation`, after `failedFirst` (a 404/405 on the other) when it fell back. */
  answered(
    name: string,
    entry: RouteSides,
    generation: Generation,
    id: string | undefined,
    fellBack: boolean,
  ) {
    if (id !== undefined) this.#memory.remember(id, generation);
    if (!fellBack) return;
    if (entry.by !== undefined) {
      if (generation === 1) this.#memory.preferOne.add(name);
      else this.#memory.preferOne.delete(name);
      return;
    }
    if (generation === 1 && !this.#memory.missing.has(name)) {
      this.#memory.missing.add(name);
      this.#log(
        `web-data-mcp: the service has no generation-2 route for ${name} (404/405); using its generation-1 route from now on`,
      );
    }
  }

  /**
   * Runs one call in the order the router gives. In `auto`, the first call of a route not yet
   * known to answer on generation 2 (for an id read: of an id not remembered) probes it; calls of
   * the same route meanwhile wait for what the probe learns, so a missing route answers 404 once,
   * not once per concurrent call.
   */
  async run<T>(
    name: string,
    entry: RouteSides,
    id: string | undefined,
    call: (order: Generation[]) => Promise<T>,
  ) {
    const probing = () =>
      this.setting === "auto" &&
      entry[1] !== undefined &&
      entry[2] !== undefined &&
      !this.#memory.confirmed.has(name) &&
      !this.#memory.missing.has(name) &&
      !this.#memory.preferOne.has(name) &&
      (id === undefined || !this.#memory.ids.has(id));
    for (
      let pending = this.#memory.probes.get(name);
      probing() && pending;
      pending = this.#memory.probes.get(name)
    ) {
      await pending.catch(() => {});
    }
    if (!probing()) return call(this.order(name, entry, id));
    const probe = call(this.order(name, entry, id));
    this.#memory.probes.set(name, probe);
    try {
      return await probe;
    } finally {
      if (this.#memory.probes.get(name) === probe) this.#memory.probes.delete(name);
    }
  }

  /** Remembers ids an answer handed out, with the generation that made them. */
  remember(ids: Iterable<unknown>, generation: Generation): void {
    for (const id of ids) if (typeof id === "string" && id !== "") this.#memory.remember(id, generation);
  }

  /** The generation an id was made on, if this process remembers it. */
  generationOf(id: string): Generation | undefined {
    return this.#memory.ids.get(id);
  }
}
