/**
 * The sandbox stays local: callbacks go to loopback addresses only and only when asked for
 * (`allowCallbacks`), it answers loopback Host headers only, and it will not bind beyond
 * loopback without a key.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callbackTarget } from "../../src/sandbox/callbacks.js";
import { SandboxOptionsError, startSandbox } from "../../src/sandbox/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, startReceiver, until } from "./helpers.js";

const OFF_LOOPBACK = [
  "http://203.0.113.7/hook",
  "http://example.com/hook",
  "https://[2001:db8::1]/hook",
  "http://localhost.example.com/hook",
  "http://127.0.0.1.nip.io/hook",
  "http://0.0.0.0:9/hook",
  "http://10.0.0.1/hook",
];

const isLoopbackUrl = (raw: string) => {
  const h = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  return h === "::1" || /^127(\.\d+){3}$/.test(h);
};

describe("sandbox callbacks stay on loopback", () => {
  const sandbox = useSandbox({ taskLatencyMs: 5, crawlPageMs: 2, allowCallbacks: true });
  afterEach(() => vi.restoreAllMocks());

  it("sends nothing off loopback: task, agent and crawl callbacks to other hosts are refused", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const receiver = await startReceiver();
    try {
      for (const url of OFF_LOOPBACK) {
        const r = await call(sandbox, "POST", "/v1/extract/async", {
          body: { url: `${sandbox.siteUrl}/about`, callback_url: url },
        });
        expect(r.status, url).toBe(200);
      }
      await call(sandbox, "POST", "/v1/crawl", {
        body: { url: `${sandbox.siteUrl}/`, limit: 2, callback: { url: OFF_LOOPBACK[0] } },
      });
      // A loopback callback is still delivered: the refusals above are not everything failing.
      await call(sandbox, "POST", "/v1/extract/async", {
        body: { url: `${sandbox.siteUrl}/about`, callback_url: `${receiver.url}/ok` },
      });
      await receiver.waitFor(1);
      await until(
        async () => sandbox.callbacks.length,
        (n) => n >= OFF_LOOPBACK.length + 2,
      );
      const refused = sandbox.callbacks.filter((c) => !c.sent);
      expect(new Set(refused.map((c) => c.url))).toEqual(new Set(OFF_LOOPBACK));
      for (const c of refused) expect(c.refused).toMatch(/loopback/);
      const sent = sandbox.callbacks.filter((c) => c.sent).map((c) => c.url);
      expect(sent).toEqual([`${receiver.url}/ok`]);
      const fetched = fetchSpy.mock.calls.map(([input]) =>
        String(input instanceof Request ? input.url : input),
      );
      expect(fetched.filter((u) => !isLoopbackUrl(u))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("sends localhost callbacks to 127.0.0.1 and follows no redirect", () => {
    expect(callbackTarget("http://localhost:9/x", true)).toEqual({ url: "http://127.0.0.1:9/x" });
    expect(callbackTarget("http://[::1]:9/x", true)).toEqual({ url: "http://[::1]:9/x" });
    expect(callbackTarget("ftp://127.0.0.1/x", true)).toHaveProperty("refused");
    expect(callbackTarget("http://127.0.0.1:9/x", false)).toEqual({
      refused: "callbacks are off (start the sandbox with --allow-callbacks)",
    });
  });
});

describe("sandbox without allowCallbacks (the default)", () => {
  const sandbox = useSandbox({ taskLatencyMs: 5 });

  it("records a loopback callback as not sent and sends nothing", async () => {
    const receiver = await startReceiver();
    try {
      const { body } = await call(sandbox, "POST", "/v1/extract/async", {
        body: { url: `${sandbox.siteUrl}/about`, callback_url: `${receiver.url}/hook` },
      });
      await until(
        () => call(sandbox, "GET", `/v1/tasks/${body.task_id}`),
        (r) => r.body.task.state !== "pending",
      );
      await until(
        async () => sandbox.callbacks.length,
        (n) => n >= 1,
      );
      expect(sandbox.callbacks).toEqual([
        expect.objectContaining({
          url: `${receiver.url}/hook`,
          sent: false,
          refused: expect.stringMatching(/--allow-callbacks/),
        }),
      ]);
      expect(receiver.received).toEqual([]);
      const log = (await (await fetch(`${sandbox.url}/_sandbox/callbacks`)).json()) as {
        callbacks: unknown[];
      };
      expect(log.callbacks).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("answers loopback Host headers only (DNS-rebinding protection)", async () => {
    const port = new URL(sandbox.url).port;
    const get = (host: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once("error", reject);
        req.end();
      });
    for (const path of ["/site/", "/_sandbox/requests", "/v1/tasks"]) {
      expect(await get("evil.example", path), path).toBe(403);
      expect(await get(`evil.example:${port}`, path), path).toBe(403);
    }
    expect(await get(`localhost:${port}`, "/site/")).toBe(200);
    expect(await get(`127.0.0.1:${port}`, "/_sandbox/requests")).toBe(200);
    expect(await get("127.0.0.1:1", "/site/")).toBe(403);
  });

  it("reports the address it bound", () => {
    expect(sandbox.bound).toBe(`127.0.0.1:${new URL(sandbox.url).port}`);
  });

  it("refuses to bind beyond loopback without a key", async () => {
    await expect(startSandbox({ host: "0.0.0.0" })).rejects.toThrow(SandboxOptionsError);
    await expect(startSandbox({ host: "0.0.0.0" })).rejects.toThrow(/needs --key/);
  });
});
