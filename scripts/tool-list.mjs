// Writes dist/tool-list.json: every registry tool's tools/list entry (the same pure listTools the
// server's handler uses) with its toolset (and opt-in flag), so a starting server can answer tools/list from its own
// SDK handler before the tool definitions, zod schemas and the API client are loaded
// (src/server/create-server.ts). Run by `npm run build` after the per-file transpile; imports that output.
import { writeFileSync } from "node:fs";
import { listTools } from "../dist/server/list-tools.js";
import { VERSION } from "../dist/server/version.js";
import { ALL_TOOLS } from "../dist/tools/registry.js";

const tools = listTools(ALL_TOOLS).map((tool, i) => ({
  toolset: ALL_TOOLS[i].toolset,
  ...(ALL_TOOLS[i].optIn ? { optIn: true } : {}),
  tool,
}));
writeFileSync(
  new URL("../dist/tool-list.json", import.meta.url),
  JSON.stringify({ version: VERSION, tools }),
);
