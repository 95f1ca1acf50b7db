/**
 * Ids remember their generation (issue 21), for the ids of the newer capabilities too: a
 * generation, a research agent and its run, a job run, a crawl and a media task made on
 * generation 1 (auto against a service without generation 2, where creation falls back) are
 * read on generation 1 straight away: not one generation-2 request names them.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { startTestSandbox, TEST_KEY } from "../helpers/mcp.js";

let sandbox: Sandbox;
let client: WebDataClient;
const log: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ generation2: false, taskLatencyMs: 0 });
  client = new WebDataClient({
    baseUrl: sandbox.url,
    apiKey: TEST_KEY,
    generation: "auto",
    log: (m) => log.push(m),
  });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

/** The generation-2 requests that name `id` since `from`. */
const v2RequestsNaming = (id: string, from: number) =>
  sandbox.requests.slice(from).filter((r) => r.path.startsWith("/v2/") && r.path.includes(id));

it("reads each new id on the generation that made it", async () => {
  const site = `${sandbox.siteUrl}/`;
  const generation = await client.createGeneration({ prompt: "title and price", url: site });
  const agent = await client.createResearchAgent({ template: "market_research" });
  const run = await client.startResearchRun(agent.id, { input: "tents", origin: "api" });
  const job = await client.createJob({ name: "daily", agent_name: "ecommerce_product" });
  const jobRun = await client.triggerJob(job.id);
  const { crawl_id } = await client.crawl({ url: site, limit: 1 });
  const media = await client.mediaAsync({ url: "https://cdn.example.com/boots.png" });
  expect(client.generationOf(generation.id)).toBe(1);
  for (const id of [agent.id, job.id, jobRun.id, crawl_id, media.task_id])
    expect(client.generationOf(id), id).toBe(1);

  const from = sandbox.requests.length;
  expect((await client.getGeneration(generation.id)).id).toBe(generation.id);
  expect((await client.getResearchRun(agent.id, run.id)).id).toBe(run.id);
  expect((await client.getJobRun(jobRun.id, job.id)).id).toBe(jobRun.id);
  expect(await client.getCrawl(crawl_id)).toHaveProperty("crawl");
  expect((await client.getTask(media.task_id)).task).toBeDefined();
  for (const id of [generation.id, agent.id, jobRun.id, crawl_id, media.task_id])
    expect(v2RequestsNaming(id, from), id).toEqual([]);
  expect(sandbox.requests.slice(from).every((r) => r.status < 400)).toBe(true);
});
