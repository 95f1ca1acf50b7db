/**
 * A `WebDataClient` whose async task submissions carry a callback URL of this server (extract:
 * `callback_url`; agent: `params.callback_url`; map: `callback_url`; crawl: `callback.url` with
 * the end events only) and whose answered task or crawl id is bound to it, so the waiting
 * mechanism can complete on the webhook. A callback the caller set itself is left alone.
 * Everything else is the plain client.
 */
import {
  type CallOptions,
  type CrawlIdResponse,
  type TaskIdResponse,
  WebDataClient,
  type WebDataClientOptions,
} from "../../api/client.js";
import type { AgentRunRequest, CrawlRequest, ExtractRequest, MapRequest } from "../../api/schemas.js";
import type { CallbackRegistry, PreparedCallback } from "./callbacks.js";

export class CallbackClient extends WebDataClient {
  readonly #callbacks: CallbackRegistry;

  constructor(options: WebDataClientOptions, callbacks: CallbackRegistry) {
    super(options);
    this.#callbacks = callbacks;
  }

  override extractAsync(body: ExtractRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.callback_url) return super.extractAsync(body, opts);
    return this.#submit((url) => super.extractAsync({ ...body, callback_url: url }, opts));
  }

  override mapAsync(body: MapRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.callback_url) return super.mapAsync(body, opts);
    return this.#submit((url) => super.mapAsync({ ...body, callback_url: url }, opts));
  }

  override runAgentAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.params?.callback_url) return super.runAgentAsync(body, opts);
    return this.#submit((url) =>
      super.runAgentAsync({ ...body, params: { ...body.params, callback_url: url } }, opts),
    );
  }

  override agentsAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    if (body.params?.callback_url) return super.agentsAsync(body, opts);
    return this.#submit((url) =>
      super.agentsAsync({ ...body, params: { ...body.params, callback_url: url } }, opts),
    );
  }

  override crawl(body: CrawlRequest, opts?: CallOptions): Promise<CrawlIdResponse> {
    if (body.callback) return super.crawl(body, opts);
    return this.#submit(
      (url) => super.crawl({ ...body, callback: { url, events: ["completed", "failed"] } }, opts),
      (answer) => answer.crawl_id,
    );
  }

  async #submit<T extends object>(
    send: (url: string) => Promise<T>,
    idOf: (answer: T) => string = (answer) => (answer as { task_id: string }).task_id,
  ): Promise<T> {
    const prepared: PreparedCallback = this.#callbacks.prepare();
    try {
      const answer = await send(prepared.url);
      prepared.bind(idOf(answer));
      return answer;
    } catch (error) {
      prepared.cancel();
      throw error;
    }
  }
}
