/**
 * Issue 30 "Must show": the cross-user table. Two users (issuer + subject, as OAuth gives them)
 * share the server's one API key, with the Redis stores. Alice makes one of each kind of work
 * through the tools (a SERP batch, a job and its run, a template generation and its template, a
 * research agent and its run, a media download); then per surface and attack (read, list, resume,
 * cancel, change, delete) Bob is refused — another's id answers exactly like a made-up one — and
 * Alice is answered. The table printed in docs/security-tests.md is this file's `ROWS`.
 * Every cross-user row fails on a40b9cd (nothing owned these surfaces but the SERP batch, which
 * failed for its own user too).
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Authenticator, Identity } from "../../src/server/http/auth/authenticate.js";
import { useHttpServer } from "../helpers/http-server.js";
import { type Connected, connect, textOf } from "./helpers.js";

const KEY = "wdk_crossuserQZXJVKWH";
/** A job of the account made outside this server: everyone's to read and run, no one's to change. */
const SHARED_JOB = "job_daily_prices";
/** A private template of the account made outside this server (the sandbox's catalog): everyone's to list. */
const ACCOUNT_TEMPLATE = "acme_internal_stock";
const ISSUER = "https://issuer.test";
const user = (sub: string): Identity => ({ kind: "oauth", issuer: ISSUER, subject: sub });
const USERS: Record<string, Identity> = { alice: user("alice"), bob: user("bob") };
const authenticate: Authenticator = (request) => {
  const auth = USERS[request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""];
  return auth ? { ok: true, identity: auth } : { ok: false, status: 401, message: "Unauthorized" };
};

const fx = useHttpServer(KEY, {
  redis: true,
  sandbox: { taskLatencyMs: 20, crawlPageMs: 10 },
  env: { WEBDATA_TOOLSETS: "all" },
  server: { authenticate },
});
let alice: Connected;
let bob: Connected;

type Result = Awaited<ReturnType<typeof call>>;
const call = (who: Connected, name: string, args: Record<string, unknown>) =>
  who.client.callTool({ name, arguments: args }, CallToolResultSchema);
/** Alice's call; a failure leaves the surface unmade (the first test names it), the other rows still run. */
const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await call(alice, name, args);
  if (result.isError) failures.push(`${name}: ${textOf(result)}`);
  return (result.isError ? {} : result.structuredContent) as Record<string, any>;
};
const failures: string[] = [];

/** What Alice made, read back from her tools' answers. */
const made = {} as {
  batch: string;
  job: string;
  run: string;
  sharedRun: string;
  generation: string;
  template: string;
  agent: string;
  researchRun: string;
  media: string;
};

beforeAll(async () => {
  alice = await connect(fx.http.url, { authorization: "Bearer alice" });
  bob = await connect(fx.http.url, { authorization: "Bearer bob" });
  const serp = await ok("serp_search", { search_engine: "engine1_search", queries: ["tent", "stove"] });
  made.batch = serp.batch_id;
  const generation = await ok("generate_template", {
    prompt: "Extract the title and price",
    url: `${fx.sandbox.siteUrl}/`,
    name: "alice_products",
  });
  made.generation = generation.generation_id;
  made.template = generation.template;
  made.job = (
    await ok("manage_job", { action: "create", name: "alice-job", extract_template_name: made.template })
  ).job_id;
  made.run = (await ok("manage_job", { action: "trigger", job_id: made.job })).run_id;
  made.sharedRun = (await ok("manage_job", { action: "trigger", job_id: SHARED_JOB })).run_id;
  made.agent = (
    await ok("manage_research_agent", {
      action: "create",
      template: "market_research",
      agent_name: "alice_agent",
    })
  ).agent_id;
  made.researchRun = (
    await ok("research", { agent_id: made.agent, input: "Which tents suit winter?" })
  ).run_id;
  made.media = (await ok("download_media", { url: `${fx.sandbox.siteUrl}/` })).task_id;
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
});

interface Row {
  surface: string;
  attack: "read" | "list" | "resume" | "cancel" | "change" | "delete";
  tool: string;
  /** The arguments with Alice's id, and with a made-up one in its place (read/resume/cancel/change/delete). */
  args: () => Record<string, unknown>;
  madeUp?: () => Record<string, unknown>;
  /** For a listing: Alice's id, which Bob's listing must not show and hers must. */
  listed?: () => string;
}

const ROWS: Row[] = [
  {
    surface: "SERP batch",
    attack: "resume",
    tool: "serp_search",
    args: () => ({ search_engine: "engine1_search", batch_id: made.batch }),
    madeUp: () => ({ search_engine: "engine1_search", batch_id: "00000000-0000-4000-a000-00000000b0b0" }),
  },
  {
    surface: "SERP batch",
    attack: "read",
    tool: "get_task",
    args: () => ({ batch_id: made.batch }),
    madeUp: () => ({ batch_id: "00000000-0000-4000-a000-00000000b0b0" }),
  },
  {
    surface: "job",
    attack: "list",
    tool: "job_runs",
    args: () => ({}),
    listed: () => made.job,
  },
  {
    surface: "job",
    attack: "read",
    tool: "job_runs",
    args: () => ({ job_id: made.job }),
    madeUp: () => ({ job_id: "job_madeup" }),
  },
  {
    surface: "job",
    attack: "change",
    tool: "manage_job",
    args: () => ({ action: "update", job_id: made.job, display_name: "mine now" }),
    madeUp: () => ({ action: "update", job_id: "job_madeup", display_name: "mine now" }),
  },
  {
    surface: "job",
    attack: "resume",
    tool: "manage_job",
    args: () => ({ action: "trigger", job_id: made.job }),
    madeUp: () => ({ action: "trigger", job_id: "job_madeup" }),
  },
  {
    surface: "job run",
    attack: "list",
    tool: "job_runs",
    args: () => ({ job_id: SHARED_JOB, limit: 100 }),
    listed: () => made.sharedRun,
  },
  {
    surface: "job run",
    attack: "read",
    tool: "job_runs",
    args: () => ({ run_id: made.run }),
    madeUp: () => ({ run_id: "run_madeup" }),
  },
  {
    surface: "job run",
    attack: "cancel",
    tool: "cancel",
    args: () => ({ run_id: made.run }),
    madeUp: () => ({ run_id: "run_madeup" }),
  },
  {
    surface: "artifact",
    attack: "read",
    tool: "job_runs",
    args: () => ({ run_id: made.run, artifact_id: `${made.run.slice(0, 8)}-results` }),
    madeUp: () => ({ run_id: "run_madeup", artifact_id: "run_made-results" }),
  },
  {
    surface: "template generation",
    attack: "resume",
    tool: "generate_template",
    args: () => ({ generation_id: made.generation }),
    madeUp: () => ({ generation_id: "gen_madeup" }),
  },
  {
    surface: "template",
    attack: "read",
    tool: "run_template",
    args: () => ({ template: made.template, list_versions: true }),
    madeUp: () => ({ template: "madeup_template", list_versions: true }),
  },
  // The agent catalog is the key's, shared by its servers: list_agents leaves another's templates out.
  {
    surface: "template",
    attack: "list",
    tool: "list_agents",
    args: () => ({ query: made.template }),
    listed: () => made.template,
  },
  {
    surface: "template",
    attack: "read",
    tool: "list_agents",
    args: () => ({ name: made.template }),
    madeUp: () => ({ name: "madeup_template" }),
  },
  {
    surface: "template",
    attack: "change",
    tool: "manage_template",
    args: () => ({
      action: "update",
      template: made.template,
      patch: [{ op: "replace", path: "/display_name", value: "x" }],
    }),
    madeUp: () => ({
      action: "update",
      template: "madeup_template",
      patch: [{ op: "replace", path: "/display_name", value: "x" }],
    }),
  },
  {
    surface: "template",
    attack: "delete",
    tool: "manage_template",
    args: () => ({ action: "delete", template: made.template }),
    madeUp: () => ({ action: "delete", template: "madeup_template" }),
  },
  {
    surface: "research agent",
    attack: "list",
    tool: "list_research_agents",
    args: () => ({}),
    listed: () => made.agent,
  },
  {
    surface: "research agent",
    attack: "read",
    tool: "list_research_agents",
    args: () => ({ agent_id: made.agent }),
    madeUp: () => ({ agent_id: "agent_madeup" }),
  },
  {
    surface: "research agent",
    attack: "change",
    tool: "manage_research_agent",
    args: () => ({
      action: "update",
      agent_id: made.agent,
      patch: [{ op: "replace", path: "/display_name", value: "x" }],
    }),
    madeUp: () => ({
      action: "update",
      agent_id: "agent_madeup",
      patch: [{ op: "replace", path: "/display_name", value: "x" }],
    }),
  },
  {
    surface: "research agent",
    attack: "delete",
    tool: "manage_research_agent",
    args: () => ({ action: "delete", agent_id: made.agent }),
    madeUp: () => ({ action: "delete", agent_id: "agent_madeup" }),
  },
  {
    surface: "research run",
    attack: "resume",
    tool: "research",
    args: () => ({ agent_id: made.agent, run_id: made.researchRun }),
    madeUp: () => ({ agent_id: "agent_madeup", run_id: "run_madeup" }),
  },
  {
    surface: "media download",
    attack: "read",
    tool: "get_task",
    args: () => ({ task_id: made.media }),
    madeUp: () => ({ task_id: "00000000-0000-4000-a000-00000000f11e" }),
  },
];

/** Ids replaced, so Bob's answer on Alice's id can be compared with his answer on a made-up one. */
const masked = (result: Result, ids: string[]) =>
  [...ids]
    .sort((a, b) => b.length - a.length)
    .reduce((text, id) => (id ? text.replaceAll(id, "<id>") : text), textOf(result));
const idsIn = (args: Record<string, unknown>) =>
  Object.values(args).filter((v): v is string => typeof v === "string");

describe("the cross-user table: every cross-user row refused, every own row answered", () => {
  it("made one of each surface as alice", () => {
    expect(failures).toEqual([]);
    for (const [name, id] of Object.entries(made)) expect(id, name).toMatch(/\S/);
  });

  // Destructive rows last, so the reads above still find Alice's work.
  const order = [...ROWS].sort((a, b) => Number(a.attack === "delete") - Number(b.attack === "delete"));
  for (const row of order) {
    it(`${row.surface} × ${row.attack} (${row.tool})`, async () => {
      const args = row.args();
      const theirs = await call(bob, row.tool, args);
      if (row.listed) {
        expect(theirs.isError, textOf(theirs)).toBeFalsy();
        expect(JSON.stringify(theirs)).not.toContain(row.listed());
        const mine = await call(alice, row.tool, args);
        expect(JSON.stringify(mine)).toContain(row.listed());
        return;
      }
      expect(theirs.isError, `bob got an answer: ${textOf(theirs)}`).toBe(true);
      const madeUp = row.madeUp?.() ?? {};
      const unknown = await call(bob, row.tool, madeUp);
      expect(unknown.isError).toBe(true);
      expect(masked(theirs, idsIn(args))).toBe(masked(unknown, idsIn(madeUp)));
      const mine = await call(alice, row.tool, args);
      // A run that already ended cannot be cancelled: answered (409), not refused.
      if (row.attack === "cancel") expect(textOf(mine)).not.toContain("of yours");
      else expect(mine.isError, `alice was refused: ${textOf(mine)}`).toBeFalsy();
    });
  }
});

describe("the agent catalog under the shared key", () => {
  it("lists an account template made outside this server to both users", async () => {
    for (const who of [alice, bob]) {
      const listed = await call(who, "list_agents", { query: "acme stock" });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      expect(JSON.stringify(listed.structuredContent)).toContain(ACCOUNT_TEMPLATE);
      const detail = await call(who, "list_agents", { name: ACCOUNT_TEMPLATE });
      expect(detail.isError, textOf(detail)).toBeFalsy();
    }
  });
});
