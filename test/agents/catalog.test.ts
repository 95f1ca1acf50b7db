import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheFile, readCache } from "../../src/agents/cache.js";
import { AgentCatalog, type CatalogChange, type CatalogClient } from "../../src/agents/catalog.js";
import { ApiError } from "../../src/api/errors.js";
import type { AgentDetail } from "../../src/api/schemas.js";
import { detail, prop } from "./fixtures.js";

/** Polls until `done` holds (the test timeout is the only bound). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

/** An in-memory catalog API that records its calls. */
function fakeClient(count: number) {
  const agents = new Map<string, AgentDetail>();
  for (let i = 0; i < count; i++) {
    const name = `agent_${String(i).padStart(3, "0")}`;
    agents.set(name, detail(name, [prop({ name: "q", type: "string", required: true })]));
  }
  const calls: string[] = [];
  const client: CatalogClient = {
    async listAgents(q = {}) {
      calls.push(`list ${q.offset}`);
      const all = [...agents.values()].map(({ input_properties, output_schema, feature_flags, ...r }) => r);
      return all.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
    },
    async getAgent(name) {
      calls.push(`get ${name}`);
      const d = agents.get(name);
      if (!d) throw new ApiError({ code: "not_found", status: 404, message: "no such agent" });
      return d;
    },
  };
  return { client, agents, calls };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agents-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const make = (client: CatalogClient, wanted: string[] = []) => {
  const file = cacheFile(dir, "http://api.test", "secret-key-123456");
  return new AgentCatalog({
    client,
    baseUrl: "http://api.test",
    wanted,
    cache: { dir, file, maxAgeMs: 60_000 },
  });
};

describe("AgentCatalog", () => {
  it("fetches every page of the list and the wanted details, then caches them without the key", async () => {
    const api = fakeClient(520);
    const cat = make(api.client, ["agent_007"]);
    const changes: CatalogChange[] = [];
    cat.onChange((c) => changes.push(c));
    await cat.refresh();
    expect(cat.list()).toHaveLength(520);
    expect(api.calls.filter((c) => c.startsWith("list"))).toEqual(["list 0", "list 250", "list 500"]);
    expect(cat.cachedDetail("agent_007")?.name).toBe("agent_007");
    expect(changes).toHaveLength(1);
    expect(changes[0].added).toHaveLength(520);

    const file = cacheFile(dir, "http://api.test", "secret-key-123456");
    const raw = await readFile(file, "utf8");
    expect(raw).not.toContain("secret");
    expect(file).not.toContain("secret");

    const again = make(fakeClient(0).client);
    expect(again.loadCache()).toBe(true);
    expect(again.list()).toHaveLength(520);
    expect(again.source).toBe("cache");
    expect(again.cachedDetail("agent_007")?.input_properties?.[0].name).toBe("q");
    cat.close();
  });

  it("reports additions, removals and detail changes, and nothing when nothing changed", async () => {
    const api = fakeClient(3);
    const cat = make(api.client, ["agent_001", "late"]);
    await cat.refresh();
    const changes: CatalogChange[] = [];
    cat.onChange((c) => changes.push(c));
    await cat.refresh();
    expect(changes).toEqual([]);
    api.agents.delete("agent_001");
    api.agents.set("late", detail("late", []));
    await cat.refresh();
    expect(changes).toEqual([{ added: ["late"], removed: ["agent_001"], details: ["agent_001", "late"] }]);
    expect(cat.cachedDetail("agent_001")).toBeUndefined();
    cat.close();
  });

  it("ignores a cache that is too old, of another API or corrupt", async () => {
    const api = fakeClient(2);
    const cat = make(api.client);
    await cat.refresh();
    const file = cacheFile(dir, "http://api.test", "secret-key-123456");
    expect(readCache(file, "http://api.test", 60_000)).toBeDefined();
    expect(readCache(file, "http://api.test", 60_000, Date.now() + 120_000)).toBeUndefined();
    expect(readCache(file, "http://other.test", 60_000)).toBeUndefined();
    await writeFile(file, "{not json");
    expect(readCache(file, "http://api.test", 60_000)).toBeUndefined();
    cat.close();
  });

  it("shares one refresh between concurrent callers and fetches a detail once", async () => {
    const api = fakeClient(2);
    const cat = make(api.client);
    await Promise.all([cat.refresh(), cat.refresh(), cat.ensureList()]);
    expect(api.calls.filter((c) => c.startsWith("list"))).toHaveLength(1);
    await cat.detail("agent_000");
    await cat.detail("agent_000");
    expect(api.calls.filter((c) => c === "get agent_000")).toHaveLength(1);
    await Promise.all([cat.detail("agent_001"), cat.detail("agent_001"), cat.refresh()]);
    expect(api.calls.filter((c) => c === "get agent_001")).toHaveLength(1);
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(cat.detail("agent_002", { signal: cancelled.signal })).rejects.toMatchObject({
      code: "aborted",
    });
    await cat.flush();
    cat.close();
  });
});

describe("AgentCatalog close", () => {
  it("close(a cache write in flight): settles only after the write, and no write starts after it", async () => {
    const api = fakeClient(2);
    const file = cacheFile(dir, "http://api.test", "secret-key-123456");
    const started: string[] = [];
    let finish = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const cat = new AgentCatalog({
      client: api.client,
      baseUrl: "http://api.test",
      cache: { dir, file, maxAgeMs: 60_000 },
      writeCache: async (f, d, snapshot) => {
        started.push(`write ${snapshot.agents.length}`);
        await held;
        const { writeCache } = await import("../../src/agents/cache.js");
        await writeCache(f, d, snapshot);
      },
    });
    const refreshed = cat.refresh();
    // The refresh reaches its cache write, which is held open.
    await until(() => started.length > 0);
    let closed = false;
    const closing = cat.close().then(() => {
      closed = true;
    });
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    // A detail read after close starts no write.
    await cat.detail("agent_000").catch(() => {});
    finish();
    await closing;
    await refreshed;
    expect(started).toEqual(["write 2"]);
    expect(readCache(file, "http://api.test", 60_000)?.agents).toHaveLength(2);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("close(a refresh in flight): the refresh ends aborted, nothing is written", async () => {
    let listing = () => {};
    const asked = new Promise<void>((resolve) => {
      listing = resolve;
    });
    const client: CatalogClient = {
      listAgents: (_q, options) =>
        new Promise((_resolve, reject) => {
          listing();
          options?.signal?.addEventListener("abort", () =>
            reject(new ApiError({ code: "aborted", message: "the call was cancelled" })),
          );
        }),
      getAgent: () => Promise.reject(new Error("unused")),
    };
    const cat = make(client);
    const refreshed = cat.refresh().then(
      () => "done",
      (e: ApiError) => e.code,
    );
    await asked;
    await cat.close();
    expect(await refreshed).toBe("aborted");
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("cache housekeeping", () => {
  it("drops other caches past the age limit after a write, keeps fresh ones and other files", async () => {
    const old = join(dir, `agents-${"a".repeat(24)}.json`);
    const young = join(dir, `agents-${"b".repeat(24)}.json`);
    const other = join(dir, "notes.json");
    for (const f of [old, young, other]) await writeFile(f, "{}");
    const past = new Date(Date.now() - 120_000);
    await utimes(old, past, past);
    await utimes(other, past, past);
    const cat = make(fakeClient(1).client);
    await cat.refresh();
    const left = await readdir(dir);
    expect(left).not.toContain(`agents-${"a".repeat(24)}.json`);
    expect(left).toEqual(expect.arrayContaining([`agents-${"b".repeat(24)}.json`, "notes.json"]));
    expect(left).toHaveLength(3);
    cat.close();
  });

  it("keeps no disk cache for the in-process sandbox unless WEBDATA_CACHE_DIR is set", async () => {
    const { createCatalog } = await import("../../src/agents/service.js");
    const { loadConfig } = await import("../../src/config.js");
    const base = { WEBDATA_API_KEY: "k_test_123456", WEBDATA_BASE_URL: "http://127.0.0.1:1234" };
    const api = fakeClient(1);
    const plain = createCatalog(loadConfig(base, { sandbox: true }), api.client as never);
    await plain.refresh();
    expect(await readdir(dir)).toEqual([]);
    const kept = createCatalog(
      loadConfig({ ...base, WEBDATA_CACHE_DIR: dir }, { sandbox: true }),
      api.client as never,
    );
    await kept.refresh();
    expect(await readdir(dir)).toHaveLength(1);
    plain.close();
    kept.close();
  });
});

describe("acquireCatalog", () => {
  it("shares one catalog between servers on one client and closes it with the last release", async () => {
    const { acquireCatalog } = await import("../../src/agents/service.js");
    const { loadConfig } = await import("../../src/config.js");
    const config = loadConfig({
      WEBDATA_API_KEY: "k_test_123456",
      WEBDATA_BASE_URL: "http://api.test",
      WEBDATA_CACHE_DIR: dir,
    });
    const api = fakeClient(3);
    const client = api.client as never;
    const a = acquireCatalog(config, client);
    const b = acquireCatalog(config, client);
    expect(a.fresh).toBe(true);
    expect(b.fresh).toBe(false);
    expect(b.catalog).toBe(a.catalog);
    a.release();
    a.release();
    await b.catalog.refresh();
    expect(b.catalog.list()).toHaveLength(3);
    b.release();
    await expect(b.catalog.refresh()).rejects.toThrow();
    const c = acquireCatalog(config, client);
    expect(c.fresh).toBe(true);
    c.release();
  });
});
