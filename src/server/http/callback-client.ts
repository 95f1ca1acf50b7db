import { AsyncLocalStorage } from "node:async_hooks";
/**
 * The HTTP endpoint's `WebDataClient`. With a webhook registry, its async task submissions carry
 * a callback URL of this server (extract: `callback_url`; agent: `params.callback_url`; map:
 * `callback_url`; crawl: `callback.url` with the end events only) and the answered task or crawl
 * id is bound to it, so the waiting mechanism can complete on the webhook; a callback the caller
 * set itself is left alone. Every accepted submission (batches too) is also noted on the current
 * call (`callContext`): if this replica dies mid-call, a resume elsewhere answers with the handle
 * instead of leaving the client to submit the work again. Everything else is the plain client.
 */
import {
  type CallOptions,
  type CrawlIdResponse,
  type TaskIdResponse,
  WebDataClient,
  type WebDataClientOptions,
} from "../../api/client.js";
import type { AgentBatchRequest, TemplateBatchRequest } from "../../api/client-types.js";
import type {
  AgentRunRequest,
  BatchSubmission,
  CrawlRequest,
  ExtractBatchRequest,
  ExtractRequest,
  MapRequest,
} from "../../api/schemas.js";
import type { CallbackRegistry, PreparedCallback } from "./callbacks.js";
import type { UpstreamHandle } from "./events.js";

/** The call being served (set by the MCP endpoint around each request). */
export const callContext = new AsyncLocalStorage<{ note(handle: UpstreamHandle): void }>();

const noted =
  <T>(kind: UpstreamHandle["kind"], id: (answer: T) => string) =>
  (answer: T) => {
    callContext.getStore()?.note({ kind, id: id(answer) });
    return answer;
  };
const taskId = noted<TaskIdResponse>("task", (a) => a.task_id);
const batchId = noted<BatchSubmission>("batch", (a) => a.batch_id);

export class CallbackClient extends WebDataClient {
  readonly #callbacks: CallbackRegistry | undefined;

  constructor(options: WebDataClientOptions, callbacks?: CallbackRegistry) {
    super(options);
    this.#callbacks = callbacks;
  }

  /** A lane of this client (`inLane`) sets callback URLs too. */
  protected override withOptions(options: WebDataClientOptions): WebDataClient {
    return new CallbackClient(options, this.#callbacks);
  }

  override extractAsync(body: ExtractRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.callback_url || !this.#callbacks) return super.extractAsync(body, opts).then(taskId);
    return this.#submit((url) => super.extractAsync({ ...body, callback_url: url }, opts)).then(taskId);
  }

  override mapAsync(body: MapRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.callback_url || !this.#callbacks) return super.mapAsync(body, opts).then(taskId);
    return this.#submit((url) => super.mapAsync({ ...body, callback_url: url }, opts)).then(taskId);
  }

  override runAgentAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.params?.callback_url || !this.#callbacks) return super.runAgentAsync(body, opts).then(taskId);
    return this.#submit((url) =>
      super.runAgentAsync({ ...body, params: { ...body.params, callback_url: url } }, opts),
    ).then(taskId);
  }

  override agentsAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.params?.callback_url || !this.#callbacks) return super.agentsAsync(body, opts).then(taskId);
    return this.#submit((url) =>
      super.agentsAsync({ ...body, params: { ...body.params, callback_url: url } }, opts),
    ).then(taskId);
  }

  override crawl(body: CrawlRequest, opts?: CallOptions): Promise<CrawlIdResponse> {
    const crawlId = noted<CrawlIdResponse>("crawl", (a) => a.crawl_id);
    if (body.callback || !this.#callbacks) return super.crawl(body, opts).then(crawlId);
    return this.#submit(
      (url, headers) =>
        super.crawl({ ...body, callback: { url, headers, events: ["completed", "failed"] } }, opts),
      (answer) => answer.crawl_id,
      { header: true },
    ).then(crawlId);
  }

  override extractBatch(body: ExtractBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return super.extractBatch(body, opts).then(batchId);
  }

  override agentsBatch(body: AgentBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return super.agentsBatch(body, opts).then(batchId);
  }

  override templatesBatch(body: TemplateBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return super.templatesBatch(body, opts).then(batchId);
  }

  /** `header`: the route carries callback headers, so the registration has a secret in them. */
  async #submit<T extends object>(
    send: (url: string, headers: Record<string, string>) => Promise<T>,
    idOf: (answer: T) => string = (answer) => (answer as { task_id: string }).task_id,
    options: { header?: boolean } = {},
  ): Promise<T> {
    const registry = this.#callbacks;
    if (!registry) return send("", {});
    const prepared: PreparedCallback = registry.prepare(options);
    try {
      const answer = await send(prepared.url, prepared.headers);
      prepared.bind(idOf(answer));
      return answer;
    } catch (error) {
      prepared.cancel();
      throw error;
    }
  }
}
