/** Preloaded by bunfig.toml for every test run: hooks that span all test files. */
import { afterAll } from "bun:test";
import { removeTempDirs } from "./helpers/tmp.ts";

afterAll(removeTempDirs);
