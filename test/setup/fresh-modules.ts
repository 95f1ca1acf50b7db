/**
 * Each test file gets its own instance of every module of ours: src/, the test helpers and
 * whatever else vitest runs through its module runner are evaluated again for it, so no file sees
 * state another file left in one of them (the isolation that module state would need). What stays
 * shared within a worker is what Node loads itself (node_modules: the SDK, zod, undici), and
 * globals. About 3% more CPU over the suite (5–9 s of a clean clone's run), where
 * `isolate: true` costs 0.6–1.35 s of CPU per file (docs/testing.md, "Test isolation").
 * test/layers/fresh-modules.test.ts checks it.
 */
import { vi } from "vitest";

vi.resetModules();
