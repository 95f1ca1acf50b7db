/**
 * Research agents and their runs (§14; generation 1 /v1/task-agents, §18). A run is `queued` for
 * one `taskLatencyMs`, `running` for three more, then `completed` (or `failed` when the creating
 * request took a `task_error` fault); its state comes from the clock, like tasks. With
 * `enable_events` it publishes four events as it goes: run.started, run.step (searching),
 * run.step (reading), run.completed / run.failed. The output answers the run's input from the
 * demo site's search results: prose with [n] callouts (or JSON matching `output_schema`), a trust
 * block with confidence, sources and claims whose citations are those results.
 */
import { randomUUID } from "node:crypto";
import type { SandboxState } from "../context.js";
import { searchResponse } from "./search.js";

export interface ResearchAgent {
  id: string;
  agent_name: string | null;
  display_name: string;
  description: string;
  icon: string;
  skill: string;
  effort: string;
  use_case: string;
  is_active: boolean;
  output_schema: Record<string, unknown> | null;
  goals: { id: string; goal: string; order: number }[];
  sources: { allow: unknown[]; block: unknown[]; prioritize: string | null; avoid: string | null };
  suggested_questions: { id: string; question: string; order: number }[];
  created_at: string;
  updated_at: string;
}

export interface ResearchRun {
  id: string;
  agentId: string;
  input: string;
  effort: string;
  events: boolean;
  fails: boolean;
  outputSchema?: Record<string, unknown>;
  createdAt: number;
  interactionId: string;
}

const STEPS = ["run.started", "run.step", "run.step", "run.completed"] as const;
const STEP_MESSAGES = ["Planning the research", "Searching sources", "Reading 3 sources", "Answer ready"];

export const AGENT_TEMPLATES = [
  {
    template_name: "market_research",
    display_name: "Market research",
    description: "Sizes a market and names its main players.",
    skill: "market analyst",
    use_case: "research",
  },
  {
    template_name: "company_enrichment",
    display_name: "Company enrichment",
    description: "Fills company records with size, sector and site.",
    skill: "business data analyst",
    use_case: "enrichment",
  },
  {
    template_name: "product_comparison",
    display_name: "Product comparison",
    description: "Compares products on price, rating and features.",
    skill: "product reviewer",
    use_case: "research",
  },
].map((t) => ({
  id: `wsat_${randomUUID()}`,
  ...t,
  effort: "medium",
  icon: "search",
  output_schema: null,
  goals: [{ id: `wsag_${randomUUID()}`, goal: t.description, order: 0 }],
  sources: [],
  suggested_questions: [],
  created_at: "2026-06-01T00:00:00.000Z",
  updated_at: "2026-06-01T00:00:00.000Z",
}));

export class ResearchStore {
  readonly agents = new Map<string, ResearchAgent>();
  readonly runs = new Map<string, ResearchRun>();

  constructor(private readonly state: SandboxState) {}

  createAgent(body: Record<string, unknown>): ResearchAgent | undefined {
    const template = body.template
      ? AGENT_TEMPLATES.find((t) => t.template_name === body.template)
      : undefined;
    if (body.template && !template) return undefined;
    const now = new Date().toISOString();
    const text = (k: string, fallback: string) =>
      typeof body[k] === "string" ? (body[k] as string) : fallback;
    const list = (k: string) => (Array.isArray(body[k]) ? (body[k] as string[]) : []);
    const agent: ResearchAgent = {
      id: `wsa_${randomUUID()}`,
      agent_name: typeof body.agent_name === "string" ? body.agent_name : null,
      display_name: text("display_name", template?.display_name ?? "Research agent"),
      description: text("description", template?.description ?? ""),
      icon: text("icon", "search"),
      skill: text("skill", text("domain_expertise", template?.skill ?? "general research")),
      effort: text("effort", "medium"),
      use_case: text("use_case", template?.use_case ?? "research"),
      is_active: body.is_active !== false,
      output_schema: (body.output_schema as Record<string, unknown>) ?? null,
      goals: (list("goals").length ? list("goals") : template ? [template.description] : []).map(
        (goal, order) => ({
          id: `wsag_${randomUUID()}`,
          goal,
          order,
        }),
      ),
      sources: { allow: [], block: [], prioritize: null, avoid: null, ...((body.sources as object) ?? {}) },
      suggested_questions: list("suggested_questions").map((question, order) => ({
        id: `wsasq_${randomUUID()}`,
        question,
        order,
      })),
      created_at: now,
      updated_at: now,
    };
    this.agents.set(agent.id, agent);
    return agent;
  }

  byName(name: string): ResearchAgent | undefined {
    return [...this.agents.values()].find((a) => a.agent_name === name);
  }

  startRun(agent: ResearchAgent, body: Record<string, unknown>, fails: boolean): ResearchRun {
    const run: ResearchRun = {
      id: `task_run_${randomUUID()}`,
      agentId: agent.id,
      input: String(body.input),
      effort: typeof body.effort === "string" ? body.effort : agent.effort,
      events: body.enable_events === true,
      fails,
      outputSchema: (body.output_schema as Record<string, unknown>) ?? agent.output_schema ?? undefined,
      createdAt: Date.now(),
      interactionId: `int_${randomUUID()}`,
    };
    this.runs.set(run.id, run);
    return run;
  }

  /** How many of the run's steps have happened (0..4): one per taskLatencyMs. */
  stepsDone(run: ResearchRun, now = Date.now()): number {
    const latency = Math.max(1, this.state.config.taskLatencyMs);
    return Math.min(STEPS.length, Math.floor((now - run.createdAt) / latency));
  }

  status(run: ResearchRun, now = Date.now()): string {
    const done = this.stepsDone(run, now);
    if (done === 0) return "queued";
    if (done < STEPS.length) return "running";
    return run.fails ? "failed" : "completed";
  }

  runRecord(run: ResearchRun, now = Date.now()) {
    const status = this.status(run, now);
    const latency = this.state.config.taskLatencyMs;
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      id: run.id,
      web_search_agent_id: run.agentId,
      status,
      is_active: status === "queued" || status === "running",
      effort: run.effort,
      interaction_id: run.interactionId,
      prompt: run.input,
      created_at: iso(run.createdAt),
      started_at: status === "queued" ? null : iso(run.createdAt + latency),
      completed_at:
        status === "completed" || status === "failed" ? iso(run.createdAt + STEPS.length * latency) : null,
      error:
        status === "failed" ? { message: "The research could not reach its sources", ref_id: run.id } : null,
    };
  }

  /** Events published so far (empty unless the run was created with enable_events). */
  events(run: ResearchRun, now = Date.now()) {
    if (!run.events) return [];
    return STEPS.slice(0, this.stepsDone(run, now)).map((event, i) => {
      const last = i === STEPS.length - 1;
      return {
        event: last && run.fails ? "run.failed" : event,
        data: {
          run_id: run.id,
          step: i + 1,
          total_steps: STEPS.length,
          message: last && run.fails ? "Run failed" : STEP_MESSAGES[i],
        },
      };
    });
  }

  output(run: ResearchRun) {
    const found = searchResponse(
      { query: run.input, max_results: 3, search_depth: "lite" },
      this.state.location.siteUrl,
    );
    const citations = found.results.map((r) => ({
      url: r.url,
      title: r.title,
      excerpts: [r.description],
      source_type: "primary",
      source_category: "official",
    }));
    const sources = found.results.map((r) => ({ url: r.url, type: "primary", title: r.title }));
    const props = Object.keys((run.outputSchema?.properties as object) ?? {});
    const content =
      props.length > 0
        ? Object.fromEntries(
            props.map((p, i) => [p, found.results[i % Math.max(1, found.results.length)]?.title ?? ""]),
          )
        : found.results.map((r, i) => `${r.title}: ${r.description} [${i + 1}]`).join(" ");
    const claims = citations.map((c, i) => ({
      ...(props.length > 0 ? { path: `$.${props[i % props.length]}` } : { callout: i + 1 }),
      confidence: "high",
      reasoning: `Stated on ${c.title}.`,
      citations: [c],
    }));
    return {
      type: props.length > 0 ? "json" : "text",
      content,
      trust: {
        confidence: found.results.length > 0 ? "high" : "low",
        reasoning: "Answered from the pages cited.",
        sources,
        claims,
      },
    };
  }
}
