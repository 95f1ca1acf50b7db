/** Padding agents for large-catalog tests and benches (`extraAgents`). */
import type { AgentDetail } from "../../api/schemas.js";
import { agent, countryParam, n, pageParam, queryParam, s, uri } from "./define.js";

const VERTICALS = ["ecommerce", "travel", "news", "jobs", "social", "maps", "apps", "food"];

export function generatedAgents(count: number): AgentDetail[] {
  return Array.from({ length: Math.max(0, Math.floor(count)) }, (_, i) => {
    const vertical = VERTICALS[i % VERTICALS.length];
    const id = String(i + 1).padStart(4, "0");
    return agent({
      name: `generated_${vertical}_${id}`,
      display_name: `Generated ${vertical} agent ${id}`,
      description: `Generated agent number ${i + 1} for the ${vertical} vertical.`,
      vertical,
      entity_type: `${vertical}_item`,
      domain: i % 2 === 0 ? `${vertical}${id}.example.com` : `https://${vertical}${id}.example.com`,
      managed_by: i % 5 === 0 ? "community" : "vendor",
      inputs: [queryParam([`${vertical} sample`]), ...(i % 3 === 0 ? [pageParam()] : []), countryParam()],
      output: { title: s("Title"), url: uri("URL"), score: n("Relevance score", { minimum: 0, maximum: 1 }) },
    });
  });
}
