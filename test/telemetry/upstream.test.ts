/**
 * Upstream metric and span names stay low-cardinality: every client path maps to the spec's
 * template (ids named, any base-URL prefix dropped).
 */
import { describe, expect, it } from "vitest";
import { endpointOf } from "../../src/telemetry/upstream.js";

const cases: Array<[string, string]> = [
  ["https://api.example.com/v2/serp", "/v2/serp"],
  ["https://api.example.com/prefix/v1/extract/async", "/v1/extract/async"],
  ["https://api.example.com/v1/tasks/0a1b2c3d", "/v1/tasks/{task_id}"],
  ["https://api.example.com/v1/tasks/0a1b2c3d/results?offset=3", "/v1/tasks/{task_id}/results"],
  ["https://api.example.com/v1/tasks?limit=5", "/v1/tasks"],
  ["https://api.example.com/v1/batches/b-1/progress", "/v1/batches/{batch_id}/progress"],
  ["https://api.example.com/v1/agents/amazon-product", "/v1/agents/{name}"],
  ["https://api.example.com/v1/agents/run", "/v1/agents/run"],
  ["https://api.example.com/v1/agents/batch", "/v1/agents/batch"],
  ["https://api.example.com/v2/extract/templates/t%201/versions", "/v2/extract/templates/{name}/versions"],
  ["https://api.example.com/v1/crawl/c-9", "/v1/crawl/{crawl_id}"],
  ["https://api.example.com/v2/jobs/j1/runs", "/v2/jobs/{job_id}/runs"],
  [
    "https://api.example.com/v2/jobs/runs/r1/artifacts/a1/download-url",
    "/v2/jobs/runs/{run_id}/artifacts/{artifact_id}/download-url",
  ],
  // Ids named from the kind the route takes (its work rule in src/api/routes.ts).
  ["https://api.example.com/v2/agents/a1/runs/r1/result", "/v2/agents/{agent_id}/runs/{run_id}/result"],
  ["https://api.example.com/v1/jobs/j1/runs/r1/cancel", "/v1/jobs/{job_id}/runs/{run_id}/cancel"],
  [
    "https://api.example.com/v2/extract/templates/generations/g1",
    "/v2/extract/templates/generations/{generation_id}",
  ],
  ["https://api.example.com/v2/extract/templates/t1", "/v2/extract/templates/{name}"],
  [
    "https://legacy.example.com/api/v1/realtime/social/x/v1/events/123/details",
    "/api/v1/realtime/social/{platform}/v1/events/{event_id}/details",
  ],
];

describe("endpointOf", () => {
  for (const [url, template] of cases) {
    it(`endpointOf(${new URL(url).pathname}) is ${template}`, () => {
      expect(endpointOf(new URL(url))).toBe(template);
    });
  }
});
