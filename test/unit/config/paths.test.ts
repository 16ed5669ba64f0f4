import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentPaths, getAgentDir, getProjectConfigDir, projectPaths } from "../../../src/config/index.ts";
import { expandHome } from "../../../src/util/index.ts";

describe("agent dir", () => {
	test("defaults to ~/.pi/agent", () => {
		expect(getAgentDir({ HOME: "/home/u" })).toBe("/home/u/.pi/agent");
	});
	test("PI_CODING_AGENT_DIR overrides it, with ~ expanded", () => {
		expect(getAgentDir({ HOME: "/home/u", PI_CODING_AGENT_DIR: "/opt/pi" })).toBe("/opt/pi");
		expect(getAgentDir({ HOME: "/home/u", PI_CODING_AGENT_DIR: "~/cfg" })).toBe("/home/u/cfg");
	});
	test("a blank override is ignored", () => {
		expect(getAgentDir({ HOME: "/home/u", PI_CODING_AGENT_DIR: "  " })).toBe("/home/u/.pi/agent");
	});
	test("paths inside it", () => {
		expect(agentPaths.extensions("/a")).toBe(join("/a", "extensions"));
		expect(agentPaths.settings("/a")).toBe(join("/a", "settings.json"));
	});
});

describe("project dir", () => {
	test("is <cwd>/.pi", () => {
		expect(getProjectConfigDir("/repo")).toBe("/repo/.pi");
		expect(projectPaths.extensions("/repo")).toBe("/repo/.pi/extensions");
	});
});

describe("expandHome", () => {
	test("expands only a leading ~", () => {
		expect(expandHome("~", { HOME: "/h" })).toBe("/h");
		expect(expandHome("~/x", { HOME: "/h" })).toBe("/h/x");
		expect(expandHome("a/~/x", { HOME: "/h" })).toBe("a/~/x");
		expect(expandHome("~user/x", { HOME: "/h" })).toBe("~user/x");
	});
});
