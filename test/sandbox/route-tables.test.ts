/**
 * The route tables (src/sandbox/routing.ts) decide which generation-2 routes a sandbox with
 * generation 1 only still serves: every generation-2 side answers somewhere (no "No route"), and
 * with `generation2: false` exactly the sides the generation-1 spec does not list (`specV2`)
 * answer 404 "No route".
 */
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/sandbox/app.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call } from "./helpers.js";

/** A concrete path for a route pattern: `:name{re}` and `:name` filled with a sample segment. */
const concrete = (pattern: string) => pattern.replace(/:(\w+)\{job_[^}]*\}/g, "job_x").replace(/:\w+/g, "x");

const sides = API_ROUTES.flat().flatMap((route) =>
  route[2] ? [{ method: route.method, path: concrete(route[2].path), specV2: route[2].specV2 === true }] : [],
);
const noRoute = (text: string) => text.includes("No route for");

describe("the generation-2 sides of the route tables", () => {
  it("are many, and the generation-1 spec lists a few of them", () => {
    expect(sides.length).toBeGreaterThan(40);
    expect(sides.filter((s) => s.specV2).map((s) => `${s.method} ${s.path}`)).toEqual(
      expect.arrayContaining(["POST /v2/serp", "POST /v2/extract/templates/run"]),
    );
  });

  describe("on a sandbox with both generations", () => {
    const sandbox = useSandbox({ taskLatencyMs: 0 });
    it.each(sides)("$method $path has a route", async ({ method, path }) => {
      const r = await call(
        sandbox,
        method,
        path,
        method === "GET" || method === "DELETE" ? {} : { body: {} },
      );
      expect(noRoute(r.text), r.text).toBe(false);
    });
  });

  describe("on a sandbox with generation 1 only", () => {
    const sandbox = useSandbox({ generation2: false, taskLatencyMs: 0 });
    it.each(sides)(
      "$method $path: 404 unless the generation-1 spec lists it",
      async ({ method, path, specV2 }) => {
        const r = await call(
          sandbox,
          method,
          path,
          method === "GET" || method === "DELETE" ? {} : { body: {} },
        );
        expect(noRoute(r.text), r.text).toBe(!specV2);
        if (!specV2) expect(r.status).toBe(404);
      },
    );
  });
});
