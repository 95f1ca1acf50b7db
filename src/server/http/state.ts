/**
 * What the HTTP server keeps, in one place: in this process, or in Redis with a fleet
 * (`WEBDATA_REDIS_URL`; `./fleet.ts` and ioredis are loaded only then). Session records, stream
 * events, the sessions' standalone streams, ownership of upstream work, MCP task work and the keyed hash principals are made with
 * (the fleet's salt, so principals are the same on every replica).
 */
import { randomBytes } from "node:crypto";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { CredentialHash } from "../../principal.js";
import { FairShare, type FairShareLimits } from "../fair-share.js";
import { MemoryOwnership, type OwnershipStore } from "../ownership.js";
import { MemoryTaskQuota } from "../task-quota.js";
import { ANNOUNCED_WATCH_MS, TaskWork } from "../tasks.js";
import { credentialHasher } from "./auth/principal.js";
import { MemoryEvents, type StreamEvents } from "./events.js";
import type { Fleet } from "./fleet.js";
import type { RedisSessionStreamsDeps } from "./redis-session-streams.js";
import { MemorySessionStreams, type SessionStreams } from "./session-streams.js";
import { MemorySessions, type SessionLimits, type SessionStore } from "./sessions.js";

export interface HttpState {
  fleet?: Fleet;
  sessions: SessionStore;
  events: StreamEvents;
  /** The sessions' standalone streams, on these events (a fleet's tell every replica of a change). */
  openStreams(deps: Omit<RedisSessionStreamsDeps, "events">): Promise<SessionStreams>;
  ownership: OwnershipStore;
  fairShare: FairShare;
  taskWork: TaskWork;
  hash: CredentialHash;
  close(): Promise<void>;
}

export interface StateOptions {
  redisUrl?: string;
  limits: SessionLimits;
  fairShare?: Partial<FairShareLimits>;
  log(line: string): void;
  now?: () => number;
}

export async function openState(options: StateOptions): Promise<HttpState> {
  const { limits, log, now } = options;
  const fleet = options.redisUrl
    ? await (await import("./fleet.js")).joinFleet(options.redisUrl, limits, log, now)
    : undefined;
  const memoryTasks = fleet ? undefined : new InMemoryTaskStore();
  // A cancel through any replica stops the work on the one running it at once; the record's
  // watch is then only the fallback.
  const taskWork = fleet
    ? new TaskWork(fleet.tasks, ANNOUNCED_WATCH_MS)
    : new TaskWork(memoryTasks ?? new InMemoryTaskStore());
  await fleet?.tasks.onCancel((taskId) => taskWork.cancelledElsewhere(taskId));
  const sessions = fleet?.sessions ?? new MemorySessions(limits, now);
  const events = fleet?.events ?? new MemoryEvents();
  return {
    fleet,
    sessions,
    events,
    openStreams: async (deps) =>
      fleet ? fleet.sessionStreams(deps) : new MemorySessionStreams({ ...deps, events }),
    ownership: fleet?.ownership ?? new MemoryOwnership(),
    fairShare: new FairShare(options.fairShare, fleet?.taskQuota ?? new MemoryTaskQuota()),
    taskWork,
    hash: credentialHasher(fleet?.salt ?? randomBytes(32)),
    async close() {
      taskWork.close();
      memoryTasks?.cleanup();
      await events.close();
      await sessions.close();
      await fleet?.close();
    },
  };
}
