/** Types of scripts/fleet.mjs (for the tests that import it). */
import type { ChildProcess } from "node:child_process";

export declare const CLI: string;
export declare function freePort(): Promise<number>;
/** A redis-server on a free loopback port, without persistence, its files in `dir`. */
export declare function startRedisServer(dir: string): Promise<{ url: string; stop(): Promise<void> }>;

export interface Replica {
  child: ChildProcess;
  exited: Promise<unknown>;
  alive(): boolean;
  stderr(): string;
  /** Direct `http://127.0.0.1:PORT/mcp` (clients go through nginx). */
  url: string;
  port: number;
}

export interface Fleet {
  dir: string;
  redisUrl: string;
  /** The load balancer's `/mcp`. */
  url: string;
  replicas: Replica[];
  stop(): Promise<void>;
}

export declare function startFleet(options: {
  replicas: number;
  /** The built CLI the replicas run; default this checkout's `dist/cli.cjs` (`CLI`). */
  cli?: string;
  env: Record<string, string>;
  /** More env for replica `i`, given every replica's port (e.g. its own WEBDATA_PUBLIC_URL). */
  replicaEnv?: (i: number, ports: number[]) => Record<string, string>;
}): Promise<Fleet>;
