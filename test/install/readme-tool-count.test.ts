/**
 * The README's tool count is what `tools/list` answers: the default configuration (a key only),
 * the same with the legacy credential and host, and `--sandbox` (which sets both). The sentence is
 * written by `npm run generate` (scripts/generated.mjs); this reads the numbers back and asks real
 * servers, so neither the generator nor the README can drift from the server.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { COUNT_END, COUNT_START, textBetween } from "../../scripts/registry-docs.mjs";
import { type Config, loadConfig } from "../../src/config.js";
import { type InProcessOptions, startInProcessServer } from "../helpers/in-process.js";
import { envAgainst, TEST_KEY, testCacheDir } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";
import { at } from "./helpers.js";

const sandbox = useSandbox();

async function listed(options: InProcessOptions): Promise<string[]> {
  const server = await startInProcessServer(options);
  try {
    return (await server.client.listTools()).tools.map((t) => t.name);
  } finally {
    await server.close();
  }
}

/** What `--sandbox` runs with (src/cli.ts resolveConfig), on this sandbox. */
function sandboxFlagConfig(cacheDir: string): Config {
  return {
    ...loadConfig({ WEBDATA_CACHE_DIR: cacheDir }, { sandbox: true }),
    baseUrl: sandbox.url,
    legacyBaseUrl: sandbox.legacyUrl,
    apiKey: TEST_KEY,
    legacyAuth: "demo:demo",
  };
}

describe("README tool count", () => {
  it("says how many tools tools/list has, with and without the legacy credential and on --sandbox", async () => {
    const readme = await readFile(at("README.md"), "utf8");
    const sentence = textBetween(readme, COUNT_START, COUNT_END) ?? "";
    const m = /^By default (\d+) tools, .*; (\d+) with the legacy credential, which adds (.+): /.exec(
      sentence,
    );
    expect(m, sentence).not.toBeNull();
    const [, plainCount, legacyCount, added] = m!;

    const plain = await listed({ env: envAgainst(sandbox) });
    const legacy = await listed({
      env: envAgainst(sandbox, {
        WEBDATA_LEGACY_AUTH: "demo:demo",
        WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
      }),
    });
    const cache = testCacheDir();
    const onSandbox = await listed({ config: sandboxFlagConfig(cache.env.WEBDATA_CACHE_DIR) }).finally(
      cache.remove,
    );

    expect(plain).toHaveLength(Number(plainCount));
    expect(legacy).toHaveLength(Number(legacyCount));
    expect(onSandbox).toEqual(legacy);
    const extra = legacy.filter((n) => !plain.includes(n)).map((n) => `\`${n}\``);
    expect(added).toBe(extra.join(", "));
  });
});
