/**
 * `call --sandbox` runs chain: search, extract the top URL, then get_task on the handle, as three
 * separate processes, each using what the last printed (the shell sandbox outlives each call).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stopShellSandbox } from "../../src/cli/shell-sandbox.js";
import { runCli, until } from "../helpers/mcp.js";

const cache = mkdtempSync(join(tmpdir(), "webdata-shell-sandbox-"));
const env = { WEBDATA_CACHE_DIR: cache };
const stateFile = join(cache, "shell-sandbox.json");

/** The `--json` block that `call` prints after the text. */
const structured = (stdout: string) => JSON.parse(stdout.slice(stdout.lastIndexOf("\n{\n") + 1));

afterAll(async () => {
  // A shell sandbox a failed test left running (the command itself is tested below).
  await stopShellSandbox(cache);
  rmSync(cache, { recursive: true, force: true });
});

describe("call --sandbox chains across processes", () => {
  it("search → extract the top URL → get_task on the handle, as three commands", async () => {
    const search = await runCli(
      [
        "call",
        "serp_search",
        '{"search_engine":"engine1_search","query":"hiking boots","num_results":3}',
        "--sandbox",
        "--json",
      ],
      env,
    );
    expect(search.status, search.stderr).toBe(0);
    expect(search.stderr).toMatch(/^web-data-mcp: started the shell sandbox at http:\/\/127\.0\.0\.1:\d+;/);
    const top = structured(search.stdout).results[0];
    expect(top.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/site\//);
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);

    // WEBDATA_WAIT_MS=0: the rendered extraction comes back as a handle at once.
    const extract = await runCli(
      ["call", "extract_page", JSON.stringify({ url: top.url, render: true }), "--sandbox", "--json"],
      {
        ...env,
        WEBDATA_WAIT_MS: "0",
      },
    );
    expect(extract.status, extract.stderr).toBe(0);
    expect(extract.stderr).toBe("");
    const handle = structured(extract.stdout);
    expect(handle.status).toBe("pending");
    expect(handle.resume.tool).toBe("get_task");

    const read = await until(
      () => runCli(["call", "get_task", JSON.stringify(handle.resume.arguments), "--sandbox", "--json"], env),
      (r) => r.status !== 0 || structured(r.stdout).status !== "pending",
    );
    expect(read.status, read.stdout).toBe(0);
    const page = structured(read.stdout);
    expect(page.url).toBe(top.url);
    // The demo site's real page, not a synthesised one: its body (in the text) carries the
    // search result's title.
    expect(page.chars).toBeGreaterThan(0);
    expect(read.stdout).toContain(top.title.split(" | ")[0]);
  });

  it("sandbox --stop ends it and removes its state file", async () => {
    expect(existsSync(stateFile)).toBe(true);
    const { pid } = JSON.parse(readFileSync(stateFile, "utf8"));
    const r = await runCli(["sandbox", "--stop"], env);
    expect(r.stderr).toMatch(
      /^web-data-mcp: stopped the shell sandbox at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)\n$/,
    );
    await until(
      () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      (gone) => gone,
    );
    expect(existsSync(stateFile)).toBe(false);
    const again = await runCli(["sandbox", "--stop"], env);
    expect(again.stderr).toBe("web-data-mcp: no shell sandbox is running\n");
  });

  it("exits by itself once idle, removing its state file", async () => {
    const file = join(cache, "idle.json");
    // Idle after one second without API requests; the run ends only when the sandbox exits.
    const r = await runCli(["sandbox", "--exit-when-idle", "1", "--state-file", file], {
      WEBDATA_SANDBOX_KEY: "sbx_idle_test_key",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(existsSync(file)).toBe(false);
  });
});
