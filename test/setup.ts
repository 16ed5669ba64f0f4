/** Preloaded by bunfig.toml for every test run: hooks that span all test files. */
import { afterAll } from "bun:test";
import { removeTempDirs } from "./helpers/tmp.ts";

// Removing every temp folder of a long run can take longer than a hook's default 5 s on a busy machine.
afterAll(removeTempDirs, 120_000);
