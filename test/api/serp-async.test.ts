/**
 * A new async route from its route-table entry alone (issue 31.1): `POST /v2/serp/async` got one
 * `ROUTES` entry (with its work rule and callback place), one client method and its sandbox
 * route; nothing else was edited, yet over HTTP its task is claimed for its maker (another
 * principal's read answers as unknown) and carries this server's webhook, bound to the task id.
 */
import { describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { waitFor } from "../../src/async/wait.js";
import { Principal } from "../../src/principal.js";
import { callbackHook } from "../../src/server/http/callback-client.js";
import { CALLBACK_PATH, CallbackRegistry } from "../../src/server/http/callbacks.js";
import { MemoryOwnership } from "../../src/server/ownership.js";
import { ownedClient } from "../../src/server/ownership-hook.js";
import { useSandbox } from "../helpers/sandbox.js";

const KEY = "wdk_serpasyncQZXJVKW";
const sandbox = useSandbox({ key: KEY, taskLatencyMs: 20 });

describe("POST /v2/serp/async, from its route entry", () => {
  it("is claimed for its maker, refused to another, and carries the server's webhook", async () => {
    const registry = new CallbackRegistry({ publicUrl: "http://127.0.0.1:9" });
    const base = new WebDataClient({ baseUrl: sandbox.url, apiKey: KEY }, { hook: callbackHook(registry) });
    const store = new MemoryOwnership();
    const alice = ownedClient(base, new Principal("alice", "oauth"), store);
    const bob = ownedClient(base, new Principal("bob", "oauth"), store);
    try {
      const { task_id } = await alice.serpAsync({ search_engine: "engine1_search", query: "tents" });
      expect(registry.size).toBe(1);
      const outcome = await waitFor(alice, { kind: "task", id: task_id }, { deadlineMs: 10_000 });
      expect(outcome.status).toBe("done");
      const result = await alice.getTaskResults(task_id);
      expect(JSON.stringify(result.data)).toContain("tents");
      await expect(bob.getTask(task_id)).rejects.toMatchObject({ code: "not_found", status: 404 });
      const sent = sandbox.callbacks.map((c) => c.url);
      expect(sent.some((url) => url.startsWith(`http://127.0.0.1:9${CALLBACK_PATH}`))).toBe(true);
    } finally {
      registry.close();
      await base.close();
    }
  });
});
