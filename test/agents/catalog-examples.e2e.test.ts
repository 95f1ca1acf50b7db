/**
 * Every example call the server shows for the sandbox's catalogs runs, on both API generations
 * with the default configuration: `list_agents {name}`'s `Example: run_agent {…}` line (and its
 * structured `example_params`, the same params) for every listed agent, and `run_template
 * {template}`'s `Example: run_template {…}` line for every template (the listed ones and the
 * sandbox's own), and the run call `generate_template` shows for the version it made. Each
 * example goes through the server's validation and runs on the sandbox; a
 * call missing a required param is never shown (the line would say so, and the walk fails).
 */
import { describe, expect, it } from "vitest";
import { TEMPLATES } from "../../src/sandbox/templates/definitions.js";
import { generateTemplate } from "../../src/tools/generate-template.js";
import { runTemplate } from "../../src/tools/run-template.js";
import { DEFAULT_TOOLSETS } from "../../src/toolsets.js";
import { useInProcessServer } from "../helpers/in-process.js";
import { call, envAgainst, type McpSession, textOf } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";

/** The JSON of the `Example: TOOL {…}` line of a listing's text. */
function exampleOf(text: string, tool: string): Record<string, unknown> {
  const line = text.split("\n").find((l) => l.startsWith("Example: "));
  expect(line, text).toMatch(new RegExp(`^Example: ${tool} \\{`));
  return JSON.parse(line!.slice(`Example: ${tool} `.length));
}

async function listedAgents(server: McpSession): Promise<string[]> {
  const names: string[] = [];
  for (let offset: number | undefined = 0; offset !== undefined; ) {
    const r = await call(server, "list_agents", { limit: 200, offset });
    expect(r.isError, textOf(r)).toBeFalsy();
    names.push(...r.structuredContent.agents.map((a: { name: string }) => a.name));
    offset = r.structuredContent.next_offset;
  }
  return names;
}

/** The walked counts, per generation (printed with the test names). */
const walked: Record<string, { agents: number; templates: number }> = {};

describe.each(["2", "1"])("API generation %s, default configuration", (generation) => {
  const sandbox = useSandbox();
  // The default toolsets, and run_template's and generate_template's when they are not among them.
  const toolsets = [...new Set([...DEFAULT_TOOLSETS, runTemplate.toolset, generateTemplate.toolset])].join(
    ",",
  );
  const server = useInProcessServer(() => ({
    env: envAgainst(sandbox, { WEBDATA_API_GENERATION: generation, WEBDATA_TOOLSETS: toolsets }),
  }));

  it("every agent's Example line and example_params pass validation and run", async () => {
    const names = await listedAgents(server);
    expect(names.length).toBeGreaterThanOrEqual(20);
    const failures: string[] = [];
    for (const name of names) {
      const listing = await call(server, "list_agents", { name });
      expect(listing.isError, textOf(listing)).toBeFalsy();
      const example = exampleOf(textOf(listing), "run_agent");
      expect(example, name).toEqual({ agent: name, params: listing.structuredContent.agent.example_params });
      const run = await call(server, "run_agent", example);
      if (run.isError) failures.push(`${name}: ${JSON.stringify(example)} → ${textOf(run)}`);
    }
    expect(failures).toEqual([]);
    walked[generation] = { ...walked[generation], agents: names.length };
  });

  it("every template's Example line passes validation and runs", async () => {
    const names = [...new Set([...TEMPLATES.keys(), ...(await listedAgents(server))])];
    const failures: string[] = [];
    for (const template of names) {
      const help = await call(server, "run_template", { template });
      expect(help.isError, textOf(help)).toBeFalsy();
      const example = exampleOf(textOf(help), "run_template");
      expect(example.template, template).toBe(template);
      const run = await call(server, "run_template", example);
      if (run.isError) failures.push(`${template}: ${JSON.stringify(example)} → ${textOf(run)}`);
    }
    expect(failures).toEqual([]);
    walked[generation] = { ...walked[generation], templates: names.length };
    console.info(`generation ${generation}: walked ${JSON.stringify(walked[generation])}`);
  });
});

describe.each(["2", "1"])("API generation %s: generate_template's run call", (generation) => {
  const sandbox = useSandbox();
  const toolsets = [...new Set([...DEFAULT_TOOLSETS, generateTemplate.toolset, runTemplate.toolset])].join(
    ",",
  );
  const server = useInProcessServer(() => ({
    env: envAgainst(sandbox, { WEBDATA_API_GENERATION: generation, WEBDATA_TOOLSETS: toolsets }),
  }));

  it("runs as shown, on the example page the generation was given", async () => {
    const url = "https://shop.example.com/p/1";
    const made = await call(server, "generate_template", { prompt: "Extract the title and price", url });
    expect(made.isError, textOf(made)).toBeFalsy();
    const shown = exampleOf(textOf(made).replace(/^Run it: /m, "Example: "), "run_template");
    expect(shown).toEqual(made.structuredContent.run.arguments);
    expect(shown.params).toEqual({ url });
    const run = await call(server, "run_template", shown);
    expect(run.isError, textOf(run)).toBeFalsy();
  });
});
