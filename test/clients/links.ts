/**
 * Reads a `webdata://` link the way a host application does after its model asked for it: a plain
 * SDK client on the same transport (over stdio a second server process: a link names upstream
 * work by id, so any server of the same key serves it).
 */
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { spawnAgainst } from "../helpers/mcp.js";
import { connect } from "../http/helpers.js";
import type { Servers, TransportName } from "./servers.js";

const textOf = (r: ReadResourceResult): string =>
  r.contents.map((c) => ("text" in c ? c.text : "")).join("\n");

/** The text `resources/read` answers for each URI, in order (one client for them all). */
export async function readLinks(
  servers: Servers,
  transport: TransportName,
  uris: string[],
): Promise<string[]> {
  const reader = transport === "stdio" ? await spawnAgainst(servers.sandbox) : await connect(servers.httpUrl);
  try {
    const texts: string[] = [];
    for (const uri of uris) texts.push(textOf(await reader.client.readResource({ uri })));
    return texts;
  } finally {
    await reader.close();
  }
}
