/** The registry's tool names, for telemetry's metric labels (loaded only when telemetry is on). */
export const registryToolNames = async (): Promise<string[]> =>
  (await import("../tools/registry.js")).ALL_TOOLS.map((tool) => tool.name);
