import { afterEach, describe, expect, it } from "vitest";
import { type CallbackReceiver, endedIds, startCallbackReceiver } from "../../src/async/callback-receiver.js";

let receiver: CallbackReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("endedIds", () => {
  it.each([
    ["a task that succeeded", { task: { id: "t1", state: "success" } }, ["t1"]],
    ["a task that failed", { task: { id: "t1", state: "error" } }, ["t1"]],
    ["a task still pending", { task: { id: "t1", state: "pending" } }, []],
    ["a completed crawl", { event: "completed", crawl_id: "c1", crawl: { status: "succeeded" } }, ["c1"]],
    ["a failed crawl", { event: "failed", crawl_id: "c1" }, ["c1"]],
    ["a crawl page event", { event: "page", crawl_id: "c1", crawl: { status: "running" } }, []],
    ["anything else", { hello: "world" }, []],
    ["not an object", "text", []],
  ])("%s", (_name, body, ids) => {
    expect(endedIds(body)).toEqual(ids);
  });
});

describe("startCallbackReceiver", () => {
  it("wakes the waiter of the id a callback names, and only it", async () => {
    receiver = await startCallbackReceiver();
    const controller = new AbortController();
    let otherWoke = false;
    const other = receiver.wait("t2", controller.signal).then(() => {
      otherWoke = true;
    });
    const woken = receiver.wait("t1", controller.signal);
    const res = await fetch(receiver.url, {
      method: "POST",
      body: JSON.stringify({ task: { id: "t1", state: "success" } }),
    });
    expect(res.status).toBe(204);
    await expect(woken).resolves.toBeUndefined();
    expect(otherWoke).toBe(false);
    controller.abort();
    await expect(other).rejects.toBeDefined();
  });

  it("answers 404 off its path and 400 to a body that is not JSON", async () => {
    receiver = await startCallbackReceiver();
    expect((await fetch(`${receiver.url}/elsewhere`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await fetch(receiver.url, { method: "GET" })).status).toBe(404);
    expect((await fetch(receiver.url, { method: "POST", body: "not json" })).status).toBe(400);
  });
});
