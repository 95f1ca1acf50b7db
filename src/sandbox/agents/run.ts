/** Turning an agent run into a task whose result carries `data.parsing` from the output schema. */
import type { AgentDetail } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import type { Submission } from "../extract.js";
import { pageHeaders, toMarkdown } from "../formats.js";
import type { StoredTask } from "../tasks.js";
import { generateOutput } from "./output.js";

export interface AgentRunInput {
  agent: string;
  params: Record<string, unknown>;
  formats?: string[];
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function agentHost(agent: AgentDetail): string {
  return (agent.domain ?? "agents.sandbox.example").replace(/^https?:\/\//, "").replace(/\/.*$/, "");
}

/** The page the agent "visited": params.url, else a search URL on the agent's domain. */
export function agentTargetUrl(agent: AgentDetail, params: Record<string, unknown>): string {
  if (typeof params.url === "string") return params.url;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (k !== "callback_url") query.set(k, String(v));
  return `https://${agentHost(agent)}/${agent.entity_type ?? "item"}?${query}`;
}

/** Renders the parsed output as a simple HTML page, for the html/markdown formats. */
function renderHtml(title: string, parsed: unknown): string {
  const render = (v: unknown): string => {
    if (Array.isArray(v)) return `<ol>${v.map((i) => `<li>${render(i)}</li>`).join("")}</ol>`;
    if (v && typeof v === "object") {
      return `<dl>${Object.entries(v)
        .map(([k, x]) => `<dt>${esc(k)}</dt><dd>${render(x)}</dd>`)
        .join("")}</dl>`;
    }
    return esc(String(v));
  };
  return `<!doctype html>\n<html><head><title>${esc(title)}</title></head><body><main><h1>${esc(title)}</h1>${render(parsed)}</main></body></html>\n`;
}

export function agentData(
  agent: AgentDetail,
  params: Record<string, unknown>,
  formats: readonly string[] | undefined,
) {
  const { callback_url: _cb, ...seedParams } = params;
  const seed = `${agent.name}|${JSON.stringify(Object.entries(seedParams).sort())}`;
  const parsing = generateOutput(agent.output_schema ?? {}, seed, agentHost(agent));
  const data: Record<string, unknown> = { parsing };
  const wanted = new Set(formats ?? []);
  if (wanted.size > 0) {
    const html = renderHtml(agent.display_name, parsing);
    if (wanted.has("html")) data.html = html;
    if (wanted.has("markdown")) data.markdown = toMarkdown(html);
    if (wanted.has("headers")) {
      data.headers = pageHeaders({
        ok: true,
        url: "",
        status: 200,
        title: "",
        html,
        links: [],
        onSite: false,
      });
    }
  }
  return data;
}

export function createAgentTask(
  state: SandboxState,
  agent: AgentDetail,
  input: AgentRunInput,
  sub: Submission,
  apiType: "agent" | "template" = "agent",
  /** The input echoed in the task record, when it differs from `input` (templates). */
  echo: unknown = input,
): StoredTask {
  const url = agentTargetUrl(agent, input.params);
  const callback = input.params.callback_url;
  return state.tasks.create({
    apiType,
    input: echo,
    url,
    batchId: sub.batchId,
    delayMs: sub.delayMs,
    failure: state.failureFor(url, sub.target, sub.faultHeader),
    statusCode: 200,
    callbackUrl: typeof callback === "string" ? callback : undefined,
    driver: agent.vertical === "travel" || agent.vertical === "social" ? "vx8" : "vx6",
    data: () => agentData(agent, input.params, input.formats),
  });
}
