/**
 * Issue 30.1 / 31.1: the route table is the one list of what creates, names and lists work, and
 * every rule the HTTP layer applies follows from it. A route with an id in its path that does not
 * take it, an async route without a webhook place or a minted id, or a minted/taken id the
 * ownership hook does not claim/check fails here; so does a hand-kept list of routes elsewhere.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RouteCall } from "../../src/api/route-hook.js";
import { ROUTES, type Route, type RouteName } from "../../src/api/routes.js";
import { ACCOUNT_KINDS, valuesAt, WORK_KINDS, type WorkRule } from "../../src/api/work.js";
import { Principal } from "../../src/principal.js";
import { callbackHook } from "../../src/server/http/callback-client.js";
import { CALLBACK_PATH, CALLBACK_SECRET_HEADER, CallbackRegistry } from "../../src/server/http/callbacks.js";
import { MemoryOwnership } from "../../src/server/ownership.js";
import { ownershipHook } from "../../src/server/ownership-hook.js";
import { OTHER } from "../../src/telemetry/labels.js";
import { endpointOf } from "../../src/telemetry/upstream.js";

const entries = Object.entries(ROUTES) as Array<[RouteName, Route]>;
const paramsOf = (route: Route) =>
  [route[1]?.path, route[2]?.path].flatMap((p) => [...(p ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
const rule = (route: Route): WorkRule => (route.work === "none" ? {} : route.work);

/** An answer holding `value` at each of the dotted paths (`tasks[].id` → `{tasks: [{id}]}`). */
function answerWith(paths: string[], value: string): unknown {
  const set = (target: unknown, parts: string[]): unknown => {
    if (parts.length === 0) return value;
    const [head, ...rest] = parts as [string, ...string[]];
    const many = head.endsWith("[]");
    const name = many ? head.slice(0, -2) : head;
    const inner = (existing: unknown) => set(existing, rest);
    if (name === "") return [inner(Array.isArray(target) ? target[0] : undefined)];
    const obj = (typeof target === "object" && target !== null ? target : {}) as Record<string, unknown>;
    const current = obj[name];
    return {
      ...obj,
      [name]: many ? [inner(Array.isArray(current) ? current[0] : undefined)] : inner(current),
    };
  };
  return paths.reduce<unknown>((answer, path) => set(answer, path.split(".")), {});
}

describe("the route table's work rules", () => {
  it("every route says what work it mints, takes or lists, or that it touches none", () => {
    for (const [name, route] of entries) {
      expect(route.work, name).toBeDefined();
      if (route.work === "none") continue;
      const { mints = [], takes = [], lists } = route.work;
      expect(mints.length + takes.length + (lists ? 1 : 0), `${name}: an empty rule`).toBeGreaterThan(0);
      for (const k of [...mints, ...takes, ...(lists ? [lists] : [])])
        expect(WORK_KINDS, name).toContain(k.kind);
    }
  });

  it("a route that sends work and touches no one's is one of the few known to create nothing", () => {
    const creatingNothing = entries
      .filter(([, r]) => r.method !== "GET" && r.work === "none")
      .map(([n]) => n)
      .sort();
    // A new POST/PATCH/DELETE route lands here only on purpose: most create, change or end work.
    expect(creatingNothing).toEqual(["checkDomainHealth", "fastSerp", "map", "search", "serp"]);
  });

  it("every id in a route's path is one the route takes (generation 1's job above a run aside)", () => {
    for (const [name, route] of entries) {
      const taken = new Set(rule(route).takes?.flatMap((t) => (t.param ? [t.param] : [])));
      for (const param of paramsOf(route)) {
        if (param === "job" && taken.has("run")) continue;
        expect(taken.has(param), `${name} takes {${param}}`).toBe(true);
      }
    }
  });

  it("an async route has a webhook place and mints the id it is bound to", () => {
    for (const [name, route] of entries) {
      const async = [route[1]?.path, route[2]?.path].some((p) => p?.endsWith("/async"));
      if (!async && !route.callback) continue;
      expect(route.callback, `${name}: where its webhook goes`).toBeDefined();
      expect(["task", "crawl"], `${name}: the id its webhook is bound to`).toContain(
        rule(route).mints?.[0]?.kind,
      );
    }
  });
});

describe("the ownership hook, from the table alone", () => {
  const alice = new Principal("alice", "oauth");
  const bob = new Principal("bob", "oauth");

  it("claims every id each route mints, for its maker only", async () => {
    for (const [name, route] of entries) {
      const mints = rule(route).mints ?? [];
      if (mints.length === 0) continue;
      const store = new MemoryOwnership();
      const hook = ownershipHook(alice, store);
      // Whatever the route takes is alice's already, so a read under her work mints too.
      const takes = rule(route).takes ?? [];
      await store.claim(
        "alice",
        takes.map((t) => ({ kind: t.kind, id: "given" })),
      );
      const input = callInput(route, "given");
      const answer = answerWith(
        mints.map((m) => m.at),
        `minted-${name}`,
      );
      await hook({ name, route, input }, async () => answer);
      for (const m of mints) {
        const ref = { kind: m.kind, id: `minted-${name}` };
        expect(await store.owned("alice", [ref]), `${name} claims ${m.kind} at ${m.at}`).toEqual([ref]);
        expect(await store.owned("bob", [ref])).toEqual([]);
      }
    }
  });

  it("refuses every id a route takes when another principal owns it, before anything is sent", async () => {
    for (const [name, route] of entries) {
      const takes = rule(route).takes ?? [];
      for (const taken of takes) {
        const store = new MemoryOwnership();
        await store.claim(
          "alice",
          takes.map((t) => ({ kind: t.kind, id: "given" })),
        );
        let sent = false;
        const call: RouteCall = { name, route, input: callInput(route, "given") };
        const attempt = ownershipHook(bob, store)(call, async () => {
          sent = true;
          return {};
        });
        await expect(attempt, `${name} lets bob use alice's ${taken.kind}`).rejects.toMatchObject({
          code: "not_found",
          status: 404,
        });
        expect(sent, name).toBe(false);
      }
    }
  });

  it("lets anyone read an account object made outside this server, and no one change it", async () => {
    for (const [name, route] of entries) {
      const takes = rule(route).takes ?? [];
      if (takes.length === 0 || !takes.every((t) => ACCOUNT_KINDS.has(t.kind))) continue;
      const call: RouteCall = { name, route, input: callInput(route, "outside") };
      const attempt = ownershipHook(bob, new MemoryOwnership())(call, async () => ({}));
      if (takes.some((t) => t.change))
        await expect(attempt, name).rejects.toMatchObject({ code: "not_found" });
      else await expect(attempt, name).resolves.toBeDefined();
    }
  });

  it("filters every listing to the principal's own work (and the account's objects made outside it)", async () => {
    for (const [name, route] of entries) {
      const lists = rule(route).lists;
      if (!lists) continue;
      const store = new MemoryOwnership();
      await store.claim("alice", [{ kind: lists.kind, id: "hers" }]);
      await store.claim("bob", [{ kind: lists.kind, id: "his" }]);
      const item = (id: string) => ({ [lists.id]: id });
      const items = [item("hers"), item("his"), item("outside")];
      const answer = lists.items === "" ? items : { [lists.items]: items };
      const seen = (await ownershipHook(bob, store)(
        { name, route, input: callInput(route, "outside") },
        async () => answer,
      )) as unknown;
      const shown = JSON.stringify(seen);
      expect(shown, name).not.toContain("hers");
      expect(shown, name).toContain("his");
      expect(shown.includes("outside"), `${name}: made outside this server`).toBe(
        ACCOUNT_KINDS.has(lists.kind),
      );
    }
  });
});

/** A request naming `id` wherever the route takes one. */
function callInput(route: Route, id: string): RouteCall["input"] {
  const takes = rule(route).takes ?? [];
  const params = Object.fromEntries(paramsOf(route).map((p) => [p, id]));
  const body = answerWith(
    takes.flatMap((t) => (t.body ? [t.body] : [])),
    id,
  );
  return { params, body };
}

describe("no hand-kept list of routes outside the route table", () => {
  it("src/ names the minting routes nowhere else", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const path = join(dir, f);
        return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
      });
    const minting = entries
      .filter(([, r]) => r.work !== "none" && r.work.mints?.length)
      .map(([n]) => n)
      .filter((n) => !(WORK_KINDS as readonly string[]).includes(n));
    const offenders: string[] = [];
    for (const file of files("src")) {
      if (file.endsWith(join("api", "routes.ts")) || file.endsWith(join("api", "client.ts"))) continue;
      const text = readFileSync(file, "utf8");
      if (text.includes("defineTool({")) continue; // a tool declaring the routes it calls
      // A list of three or more minting route names in one file is a hand-kept list.
      const named = minting.filter((n) => new RegExp(`["'\`]${n}["'\`]`).test(text));
      if (named.length >= 3) offenders.push(`${file}: ${named.join(", ")}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe("tools declare their routes", () => {
  it("every route a tool declares is in the table, and every route of the table but a few is some tool's", async () => {
    const { ALL_TOOLS } = await import("../../src/tools/registry.js");
    const declared = new Set(ALL_TOOLS.flatMap((t) => [...(t.routes ?? [])]));
    for (const name of declared) expect(Object.keys(ROUTES), name).toContain(name);
    const unused = entries.map(([n]) => n).filter((n) => !declared.has(n));
    // Reads no tool makes today (the client offers them): listed so a new route is placed on purpose.
    expect(unused.sort()).toEqual(["agentsAsync", "agentsBatch", "getTemplate", "listBatches"]);
  });

  /** Every route some tool declares, with the tools declaring it. */
  async function declaredRoutes(): Promise<Array<[RouteName, Route, string[]]>> {
    const { ALL_TOOLS } = await import("../../src/tools/registry.js");
    return entries.flatMap(([name, route]) => {
      const tools = ALL_TOOLS.filter((t) => t.routes?.includes(name)).map((t) => t.name);
      return tools.length > 0 ? [[name, route, tools] as [RouteName, Route, string[]]] : [];
    });
  }

  it("telemetry labels every route a tool declares by its own template, never `other`", async () => {
    for (const [name, route, tools] of await declaredRoutes()) {
      for (const side of [route[1], route[2]]) {
        if (!side) continue;
        const label = endpointOf(new URL(`https://api.example/${side.path.replace(/\{\w+\}/g, "id-1")}`));
        expect(label, `${name} (${tools}): /${side.path}`).not.toBe(OTHER);
        const fixed = (path: string) => path.split("/").filter((part) => !part.startsWith("{"));
        expect(fixed(label.slice(1)), name).toEqual(fixed(side.path));
      }
    }
  });

  it("an async route a tool declares gets this server's webhook where its entry says, bound to the id it mints", async () => {
    const asyncRoutes = (await declaredRoutes()).filter(([, route]) => route.callback);
    expect(asyncRoutes.map(([n]) => n)).toContain("serpAsync");
    for (const [name, route, tools] of asyncRoutes) {
      const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:9" });
      try {
        const [first] = rule(route).mints ?? [];
        const id = `minted-${name}`;
        let body: unknown;
        await callbackHook(registry)({ name, route, input: { body: {} } }, async (call) => {
          body = call.input.body;
          return answerWith([first!.at], id);
        });
        const place = route.callback === "crawl" ? "callback.url" : route.callback!.url;
        const [url] = valuesAt(body, place) as string[];
        expect(url, `${name} (${tools}): the webhook at ${place}`).toMatch(
          new RegExp(`^http://127\\.0\\.0\\.1:9${CALLBACK_PATH}`),
        );
        const secret =
          route.callback === "crawl"
            ? (valuesAt(body, `callback.headers.${CALLBACK_SECRET_HEADER}`)[0] as string)
            : undefined;
        const waiting = registry.completion.wait(id, new AbortController().signal);
        const token = new URL(url!).pathname.slice(CALLBACK_PATH.length);
        expect(registry.receive(token, secret, {}).status, name).toBe(200);
        await waiting;
      } finally {
        registry.close();
      }
    }
  });

  it("the work an async route a tool declares mints is resumed and read by get_task", async () => {
    const { getTask } = await import("../../src/tools/get-task.js");
    const { resumeFor } = await import("../../src/tools/result.js");
    for (const [name, route, tools] of await declaredRoutes()) {
      if (!route.callback) continue;
      const kind = rule(route).mints?.[0]?.kind;
      expect(["task", "batch", "crawl"], `${name} (${tools})`).toContain(kind);
      const target = { kind: kind as "task" | "batch" | "crawl", id: "x" };
      expect(resumeFor(target), name).toEqual({ tool: "get_task", arguments: { [`${kind}_id`]: "x" } });
      const reads = (getTask.routes ?? []).filter((r) =>
        rule(ROUTES[r]).takes?.some((t) => t.kind === kind && t.param),
      );
      expect(reads.length, `get_task reads a ${kind} (${name})`).toBeGreaterThan(0);
    }
  });
});
