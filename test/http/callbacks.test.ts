import { describe, expect, it } from "vitest";
import {
  CALLBACK_PATH,
  CALLBACK_SECRET_HEADER,
  CallbackRegistry,
  type PreparedCallback,
} from "../../src/server/http/callbacks.js";

function parts(prepared: PreparedCallback) {
  const u = new URL(prepared.url);
  return {
    token: u.pathname.slice(CALLBACK_PATH.length),
    secret: prepared.headers[CALLBACK_SECRET_HEADER],
    u,
  };
}

describe("CallbackRegistry", () => {
  it("hands out a URL under the public base with a per-registration token and secret", () => {
    const registry = new CallbackRegistry({ publicUrl: "https://mcp.example.com/base/" });
    const a = parts(registry.prepare({ header: true }));
    const b = parts(registry.prepare({ header: true }));
    expect(a.u.origin).toBe("https://mcp.example.com");
    expect(a.u.pathname.startsWith(`/base${CALLBACK_PATH}`)).toBe(true);
    expect(a.token).not.toBe(b.token);
    expect(a.secret).not.toBe(b.secret);
    expect(registry.size).toBe(2);
  });

  it("completes a waiting task on a verified delivery", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const prepared = registry.prepare();
    prepared.bind("task-1");
    const waiting = registry.completion.wait("task-1", new AbortController().signal);
    const { token, secret } = parts(prepared);
    const result = registry.receive(token, secret, { task: { id: "task-1", state: "success" } });
    expect(result.status).toBe(200);
    await expect(waiting).resolves.toBeUndefined();
    expect(registry.deliveries).toBe(1);
  });

  it("refuses a wrong secret (403) and an unknown token (404) without completing", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const prepared = registry.prepare({ header: true });
    prepared.bind("task-2");
    const { token, secret } = parts(prepared);
    expect(registry.receive(token, `${secret}x`, {}).status).toBe(403);
    expect(registry.receive(token, undefined, {}).status).toBe(403);
    expect(registry.receive("A".repeat(24), secret, {}).status).toBe(404);
    expect(registry.receive("../../etc", secret, {}).status).toBe(404);
    expect(registry.receive(token, secret, { task: { id: "another-task" } }).status).toBe(400);
    expect(registry.deliveries).toBe(0);
  });

  it("remembers a delivery that arrives before the wait, even before the task id is bound", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const prepared = registry.prepare();
    const { token, secret } = parts(prepared);
    expect(registry.receive(token, secret, { task: { id: "task-3", state: "success" } }).status).toBe(200);
    prepared.bind("task-3");
    await expect(registry.completion.wait("task-3", new AbortController().signal)).resolves.toBeUndefined();
  });

  it("rejects a wait with the signal's reason when it is aborted, and forgets the waiter", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const controller = new AbortController();
    const waiting = registry.completion.wait("never", controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });

  it("does not complete one task on another task's callback", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const a = registry.prepare();
    const b = registry.prepare();
    a.bind("task-a");
    b.bind("task-b");
    const controller = new AbortController();
    let bDone = false;
    const waitingB = registry.completion.wait("task-b", controller.signal).then(() => {
      bDone = true;
    });
    const pa = parts(a);
    registry.receive(pa.token, pa.secret, { task: { id: "task-a" } });
    await registry.completion.wait("task-a", new AbortController().signal);
    expect(bDone).toBe(false);
    controller.abort();
    await waitingB.catch(() => {});
  });

  it("takes the token alone as the credential of a route without callback headers", () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1" });
    const prepared = registry.prepare();
    expect(prepared.headers).toEqual({});
    expect(parts(prepared).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(registry.receive(parts(prepared).token, undefined, {}).status).toBe(200);
  });

  it("forgets cancelled and expired registrations", () => {
    let now = 1_000;
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:1", ttlMs: 100, now: () => now });
    const cancelled = registry.prepare();
    cancelled.cancel();
    const old = registry.prepare();
    const { token, secret } = parts(old);
    expect(registry.size).toBe(1);
    now += 101;
    expect(registry.receive(token, secret, {}).status).toBe(404);
    registry.sweep();
    expect(registry.size).toBe(0);
  });
});
