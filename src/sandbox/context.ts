/** Everything one running sandbox holds, passed to each routes file. */
import { AgentCatalog } from "./agents/catalog.js";
import { BatchStore } from "./batches.js";
import { CallbackSender } from "./callbacks.js";
import { CrawlStore } from "./crawl.js";
import { createExtractTask } from "./extract.js";
import { Faults } from "./faults.js";
import { GenerationStore } from "./lifecycle/generations.js";
import { JobStore } from "./lifecycle/job-store.js";
import { ResearchStore } from "./lifecycle/research.js";
import { TemplateStore } from "./lifecycle/template-store.js";
import { RateLimiter } from "./rate-limit.js";
import type { SiteLocation } from "./site/fetch.js";
import { isUnreachable } from "./site/fetch.js";
import { LargePages } from "./site/large.js";
import { type TaskFailure, TaskStore } from "./tasks.js";
import { Timers } from "./timers.js";
import type { RequestLogEntry, SandboxOptions, TunableOptions } from "./types.js";

export interface SandboxConfig extends Required<TunableOptions> {
  key: string | undefined;
  legacyAuth: string;
  extraAgents: number;
  allowCallbacks: boolean;
  dialect: "spec" | "live";
}

export const TASK_ERROR: TaskFailure = {
  error: "Target responded with a fatal error",
  errorType: "fetch_error",
};
const MAX_LOG = 100_000;

/**
 * A task id every sandbox knows: a finished extraction of the demo site's home page, made on first
 * read. The tools' examples (`get_task`) use it, so they run on any sandbox.
 */
export const DEMO_TASK_ID = "00000000-0000-4000-a000-000000000001";

export class SandboxState {
  readonly config: SandboxConfig;
  readonly timers = new Timers();
  readonly callbacks = new CallbackSender(() => this.config.allowCallbacks);
  readonly faults = new Faults();
  readonly limiter: RateLimiter;
  readonly tasks: TaskStore;
  readonly batches: BatchStore;
  readonly requests: RequestLogEntry[] = [];
  /** Set once the server listens. */
  location: SiteLocation & { url: string; legacyUrl: string } = {
    origin: "",
    siteUrl: "",
    url: "",
    legacyUrl: "",
  };
  readonly catalog: AgentCatalog;
  /** Extract templates (built-in and generated), with their records. */
  readonly templates = new TemplateStore();
  /** Jobs (the demo ones and those made through the API) and their runs. */
  readonly jobs: JobStore = new JobStore(this);
  /** Crawls, research agents and their runs, template generations. */
  readonly crawls: CrawlStore = new CrawlStore(this);
  readonly research: ResearchStore = new ResearchStore(this);
  readonly generations: GenerationStore = new GenerationStore(this);
  /** The /site/large pages built for tasks' results, kept for their next reads. */
  readonly largePages = new LargePages();
  /** Host header values answered; set once the server listens (see loopback.ts). */
  allowedHosts = new Set<string>();

  constructor(options: SandboxOptions) {
    this.config = {
      key: options.key,
      legacyAuth: options.legacyAuth ?? "demo:demo",
      rateLimit: options.rateLimit ?? 83,
      taskLatencyMs: options.taskLatencyMs ?? 300,
      crawlPageMs: options.crawlPageMs ?? 100,
      catalogDelayMs: options.catalogDelayMs ?? 0,
      extraAgents: options.extraAgents ?? 0,
      allowCallbacks: options.allowCallbacks ?? false,
      dialect: options.dialect ?? "spec",
      generation2: options.generation2 ?? true,
    };
    this.limiter = new RateLimiter(this.config.rateLimit);
    this.tasks = new TaskStore(() => this.location.legacyUrl, this.timers, this.callbacks);
    this.batches = new BatchStore(this.tasks);
    this.tasks.onMissing = (id) =>
      id === DEMO_TASK_ID
        ? createExtractTask(
            this,
            { url: `${this.location.siteUrl}/` },
            { target: "GET /v1/tasks", delayMs: 0, id },
          )
        : undefined;
    this.catalog = new AgentCatalog(this.config.extraAgents);
  }

  configure(p: Partial<TunableOptions>): void {
    for (const [k, v] of Object.entries(p)) {
      if (v !== undefined) Object.assign(this.config, { [k]: v });
    }
    this.limiter.setLimit(this.config.rateLimit);
  }

  log(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > MAX_LOG) this.requests.splice(0, this.requests.length - MAX_LOG);
  }

  /**
   * How a new task for `url` fails, if it does: a `task_error` fault (used up per task) or an
   * unreachable host.
   */
  failureFor(url: string, target: string, faultHeader: string | undefined): TaskFailure | undefined {
    if (this.faults.take(["task_error"], target, faultHeader)) return TASK_ERROR;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed) return { error: `Not a fetchable URL: ${url}`, errorType: "invalid_url" };
    if (isUnreachable(parsed))
      return { error: `Could not resolve host ${parsed.hostname}`, errorType: "dns_error" };
    return undefined;
  }

  close(): void {
    this.timers.close();
    this.callbacks.close();
  }
}
