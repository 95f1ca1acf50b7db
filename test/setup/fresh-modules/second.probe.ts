// A probe of test/layers/fresh-modules.test.ts (one of two alike files run in one worker).
import { test } from "vitest";
import { noteInstance } from "./note-instance.js";

test("notes whether src/api/routes.ts is an earlier file's instance", noteInstance);
