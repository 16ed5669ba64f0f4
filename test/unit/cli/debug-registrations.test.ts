import { describe, expect, test } from "bun:test";
import {
	debugRegistrationsRequested,
	registrationReports,
	renderRegistrationReports,
} from "../../../src/cli/debug-registrations.ts";
import { createEventBus, createExtensionApi, type LoadedExtensionHandle } from "../../../src/extensions/index.ts";

function loaded(path: string, factory: (pi: Record<string, any>) => void): LoadedExtensionHandle {
	const handle = createExtensionApi(path, createEventBus());
	factory(handle.api);
	return { entry: { path, scope: "cli" }, handle };
}

describe("PI_DEBUG_REGISTRATIONS", () => {
	test("is on for any value but empty and 0", () => {
		expect(debugRegistrationsRequested({})).toBe(false);
		expect(debugRegistrationsRequested({ PI_DEBUG_REGISTRATIONS: "" })).toBe(false);
		expect(debugRegistrationsRequested({ PI_DEBUG_REGISTRATIONS: "0" })).toBe(false);
		expect(debugRegistrationsRequested({ PI_DEBUG_REGISTRATIONS: "1" })).toBe(true);
	});

	test("one JSON line per extension with its own registrations; removed handlers are not listed", () => {
		const noop = () => {};
		const a = loaded("/x/a.ts", (pi) => {
			pi.registerTool({ name: "t1", execute: noop });
			pi.registerCommand("/c1", { handler: noop });
			pi.registerFlag("--f1", { type: "string" });
			pi.on("session_start", noop);
			pi.on("session_start", noop);
			const off = pi.on("turn_end", noop);
			off();
			pi.registerShortcut("ctrl+x", { handler: noop });
			pi.registerProvider("prov", {});
		});
		const b = loaded("/x/b.ts", () => {});
		expect(registrationReports({ extensions: [a, b] })).toEqual([
			{
				path: "/x/a.ts",
				tools: ["t1"],
				commands: ["c1"],
				flags: ["f1"],
				events: ["session_start"],
				shortcuts: ["ctrl+x"],
				providers: ["prov"],
			},
			{ path: "/x/b.ts", tools: [], commands: [], flags: [], events: [], shortcuts: [], providers: [] },
		]);
		const lines = renderRegistrationReports({ extensions: [a, b] })
			.trimEnd()
			.split("\n");
		expect(lines.map((line) => JSON.parse(line).path)).toEqual(["/x/a.ts", "/x/b.ts"]);
	});
});
