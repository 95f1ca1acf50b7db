// Peer MCP servers for the start-up comparison, installed on first use into bench/.peers (not a
// dependency of the project; nothing of theirs is run but their own stdio entry point). Each is
// spawned exactly as a client would, with a dummy key: initialize + tools/list need no network.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("./.peers/", import.meta.url));

export const PEERS = [
  {
    name: "exa-mcp-server",
    version: "3.4.1",
    entry: "exa-mcp-server/dist/stdio.cjs",
    env: { EXA_API_KEY: "bench" },
  },
  {
    name: "tavily-mcp",
    version: "0.2.22",
    entry: "tavily-mcp/build/index.js",
    env: { TAVILY_API_KEY: "bench" },
  },
];

/** The peers that are (or could now be) installed, each with the path of its entry point. */
export function installedPeers() {
  const missing = PEERS.filter((p) => !existsSync(`${DIR}node_modules/${p.entry}`));
  if (missing.length > 0) {
    mkdirSync(DIR, { recursive: true });
    if (!existsSync(`${DIR}package.json`))
      writeFileSync(`${DIR}package.json`, '{"name":"bench-peers","private":true}\n');
    process.stderr.write(
      `bench: installing peers ${missing.map((p) => p.name).join(", ")} into bench/.peers\n`,
    );
    spawnSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        ...missing.map((p) => `${p.name}@${p.version}`),
      ],
      { cwd: DIR, stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  return PEERS.filter((p) => existsSync(`${DIR}node_modules/${p.entry}`)).map((p) => ({
    ...p,
    path: `${DIR}node_modules/${p.entry}`,
  }));
}
