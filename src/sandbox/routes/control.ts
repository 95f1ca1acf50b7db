/** /_sandbox/*: fault control, the request log and the callback log, for a sandbox in another process. */
import { Hono } from "hono";
import type { SandboxState } from "../context.js";
import { faultProblem } from "../faults.js";
import type { SandboxEnv } from "../http.js";
import type { Fault } from "../types.js";

export function controlRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.post("/faults", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json(
        { error: { code: "BAD_REQUEST", message: "body must be a JSON fault or array of faults" } },
        400,
      );
    }
    const list = Array.isArray(body) ? body : [body];
    for (const fault of list) {
      const problem = faultProblem(fault);
      if (problem) return c.json({ error: { code: "BAD_REQUEST", message: problem } }, 400);
    }
    for (const fault of list) state.faults.add(fault as Fault);
    return c.json({ faults: state.faults.list() });
  });

  r.get("/faults", (c) => c.json({ faults: state.faults.list() }));

  r.delete("/faults", (c) => {
    state.faults.clear();
    return c.json({ faults: [] });
  });

  r.get("/requests", (c) => c.json({ requests: state.requests }));

  r.get("/callbacks", (c) => c.json({ callbacks: state.callbacks.log }));

  r.delete("/requests", (c) => {
    state.requests.length = 0;
    return c.json({ requests: [] });
  });

  return r;
}
