/**
 * Helpers of the tools that create billable things (generations, agents, jobs, runs): the
 * creating request is sent once (the client's `submission` kind: never re-sent once it may have
 * reached the service), and a creation in doubt says how to check instead of retrying.
 */
import { ApiError } from "../api/errors.js";
import { ToolError } from "./errors.js";
import type { ToolServices } from "./tool.js";

/**
 * Runs the one creating request; a failure that may have created the thing says how to settle
 * it: `check` is the call (or the listing) that shows it, `id` the id it would be found under
 * when one is known (an agent's run, a job's run), also given as `id` in the error's `_meta`.
 */
export async function createOnce<T>(
  what: string,
  check: string,
  send: () => Promise<T>,
  id?: string,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof ApiError && error.maybeAccepted) {
      throw new ToolError(
        error.code,
        `The ${what} may have been created (and billed) before this failure: ${error.message} It was not sent again. Before creating it again, check with ${check}.`,
        id === undefined ? {} : { id },
      );
    }
    throw error;
  }
}

/** The catalog service's refresh, when the agents part is running (after a template change). */
export async function refreshCatalog(services: ToolServices): Promise<string | undefined> {
  const catalog = services.agents;
  if (!catalog) return undefined;
  try {
    await catalog.refresh();
    return undefined;
  } catch (e) {
    return `The agent catalog could not be refreshed (${e instanceof Error ? e.message : String(e)}); list_agents may show the old state for a while.`;
  }
}
