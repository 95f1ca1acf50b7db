/**
 * The tool-list sidecar read as the stdio fast front reads it (src/agents/tool-list-sidecar.ts):
 * "cold" exactly when the full server would ignore the catalog cache, the entries only when the
 * sidecar fits the version, the names and the cache's state; written only when it changed;
 * pruned with its catalog cache.
 */
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pruneCaches, writeCache } from "../../src/agents/cache.js";
import { type CacheLocation, catalogCacheLocation, toolListFile } from "../../src/agents/cache-files.js";
import {
  agentToolKey,
  agentToolsForFront,
  SIDECAR_FORMAT,
  stateDigest,
  type ToolListSidecar,
  writeToolListSidecar,
} from "../../src/agents/tool-list-sidecar.js";
import { detail, prop } from "./fixtures.js";

const BASE = "http://api.test";
const NAMES = ["shop", "gone"];
const NOW = Date.now();
const shop = detail("shop", [prop({ name: "q", type: "string", required: true })]);

let location: CacheLocation;
beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), "tool-list-sidecar-"));
  location = catalogCacheLocation({
    sandbox: false,
    cacheDir: dir,
    baseUrl: BASE,
    apiKey: "secret-key-123456",
  })!;
});
afterEach(async () => {
  await rm(location.dir, { recursive: true, force: true });
});

const catalog = (fetchedAt = NOW) =>
  writeCache(location.file, location.dir, {
    version: 1,
    baseUrl: BASE,
    fetchedAt,
    agents: [{ name: "shop", is_public: true, display_name: "Shop" }],
    details: { shop },
  });

const sidecar = (over: Partial<ToolListSidecar> = {}): ToolListSidecar => ({
  format: SIDECAR_FORMAT,
  app: "1.2.3",
  names: NAMES,
  fetchedAt: NOW,
  // As the server keys them: "shop" known with details, "gone" not in the list.
  state: stateDigest([agentToolKey(shop, true), agentToolKey(undefined, false)]),
  tools: [{ name: "agent_shop" }],
  ...over,
});

const front = (names = NAMES, now = NOW) => agentToolsForFront(location, BASE, names, "1.2.3", now);

describe("agentToolsForFront", () => {
  it("cold when the full server starts without a catalog cache", async () => {
    expect(agentToolsForFront(undefined, BASE, NAMES, "1.2.3")).toEqual({ kind: "cold" });
    expect(front()).toEqual({ kind: "cold" }); // no file
    await catalog(NOW - location.maxAgeMs - 1);
    expect(front()).toEqual({ kind: "cold" }); // too old
    await catalog();
    expect(agentToolsForFront(location, "http://other.test", NAMES, "1.2.3")).toEqual({ kind: "cold" });
  });

  it("the sidecar's entries when it fits; nothing when it does not", async () => {
    await catalog();
    expect(front()).toBeUndefined(); // no sidecar
    await writeToolListSidecar(location, sidecar());
    expect(front()).toEqual({ kind: "cached", tools: [{ name: "agent_shop" }] });
    expect(front(["gone", "shop"])).toBeUndefined();
    expect(agentToolsForFront(location, BASE, NAMES, "1.2.4", NOW)).toBeUndefined();
    await writeToolListSidecar(location, sidecar({ state: stateDigest(["permissive", "absent"]) }));
    expect(front()).toBeUndefined();
  });
});

describe("writeToolListSidecar", () => {
  it("rewrites the file only when more than fetchedAt changed", async () => {
    expect(await writeToolListSidecar(location, sidecar())).toBe(true);
    expect(await writeToolListSidecar(location, sidecar({ fetchedAt: NOW + 1000 }))).toBe(false);
    expect(await writeToolListSidecar(location, sidecar({ tools: [] }))).toBe(true);
    expect(JSON.parse(await readFile(toolListFile(location.file), "utf8")).tools).toEqual([]);
  });

  it("is pruned with its catalog cache, kept beside the one in use", async () => {
    const other = join(location.dir, "agents-0123456789abcdef01234567.json");
    for (const file of [other, toolListFile(other), location.file, toolListFile(location.file)]) {
      await writeFile(file, "{}");
      await utimes(file, new Date(0), new Date(0));
    }
    expect(await pruneCaches(location.dir, location.file, 60_000)).toBe(2);
    expect((await readdir(location.dir)).sort()).toEqual(
      [location.file, toolListFile(location.file)].map((f) => f.slice(location.dir.length + 1)).sort(),
    );
  });
});
