/**
 * The interactive chrome components on their own: the footer's running totals (per-frame work does not grow with
 * the session), header and start-up summary (expanded, quiet, replaced by an extension), status rows, countdown.
 */
import { describe, expect, test } from "bun:test";
import {
	CountdownTimer,
	compactExtensionLabels,
	FooterComponent,
	type FooterSession,
	HeaderComponent,
	IdleStatus,
	StartupSummary,
	type UsageEntry,
	UsageTally,
	WorkingStatusIndicator,
} from "../../src/modes/interactive/chrome/index.ts";
import type { Component } from "../../src/tui/index.ts";

const plain = { fg: (_color: string, text: string) => text, bold: (text: string) => text };

function assistant(input: number, output: number, cost = 0): UsageEntry {
	return {
		type: "message",
		message: { role: "assistant", usage: { input, output, cacheRead: 0, cacheWrite: 0, cost: { total: cost } } },
	};
}

describe("UsageTally", () => {
	test("counts only entries it has not seen, and starts over when the list is replaced", () => {
		const tally = new UsageTally();
		const entries: UsageEntry[] = [assistant(100, 10, 0.5)];
		tally.sync(entries);
		entries.push({ type: "message", message: { role: "user" } }, assistant(50, 5, 0.25));
		let reads = 0;
		const watched = entries.map(
			(entry) =>
				new Proxy(entry, {
					get: (t, k) => {
						reads++;
						return Reflect.get(t, k);
					},
				}),
		);
		const fresh = new UsageTally();
		fresh.sync(watched);
		const before = reads;
		fresh.sync(watched);
		expect(reads).toBe(before);
		tally.sync(entries);
		expect(tally.get()).toMatchObject({ input: 150, output: 15, cost: 0.75 });
		tally.sync([assistant(1, 1)]);
		expect(tally.get()).toMatchObject({ input: 1, output: 1, cost: 0 });
	});

	test("by position: reads only the entries after the counted positions; another session starts over", () => {
		const ids = ["a", "b", "c"];
		const entries: UsageEntry[] = [assistant(100, 10), { type: "message", message: { role: "user" } }, assistant(5, 1)];
		const reads: [number, number][] = [];
		const source = {
			getTreeNodes: () => ids.map((id) => ({ id })),
			getEntriesBetween: (start: number, end: number) => {
				reads.push([start, end]);
				return entries.slice(start, end);
			},
		};
		const tally = new UsageTally();
		tally.syncPositions(source, 2);
		tally.syncPositions(source);
		tally.syncPositions(source);
		expect(reads).toEqual([
			[0, 2],
			[2, 3],
		]);
		expect(tally.get()).toMatchObject({ input: 105, output: 11 });
		ids.push("d");
		entries.push(assistant(1, 1));
		tally.syncPositions(source);
		expect(reads.at(-1)).toEqual([3, 4]);
		// Another session (a different id where the last counted one was): counted again from the start.
		ids.splice(0, 4, "x", "y", "z", "w");
		tally.syncPositions(source);
		expect(reads.at(-1)).toEqual([0, 4]);
		expect(tally.get()).toMatchObject({ input: 106, output: 12 });
	});

	test("tool results with usage, usage entries, compactions and branch summaries count; users do not", () => {
		const tally = new UsageTally();
		const usage = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: { total: 1 } };
		for (const entry of [
			{ type: "message", message: { role: "toolResult", usage } },
			{ type: "usage", usage },
			{ type: "compaction", usage },
			{ type: "branch_summary", usage },
			{ type: "message", message: { role: "user", usage } },
		])
			tally.add(entry);
		expect(tally.get()).toMatchObject({ input: 4, output: 8, cacheRead: 12, cacheWrite: 16, cost: 4 });
		expect(tally.get().latestCacheHitRate).toBeUndefined();
	});
});

function session(over: Partial<FooterSession> = {}): FooterSession {
	return {
		state: { model: { id: "m", provider: "p", contextWindow: 1000 } },
		getContextUsage: () => ({ contextWindow: 1000, percent: 10 }),
		sessionManager: { getCwd: () => "/people/ann/p", getSessionName: () => undefined, getEntries: () => [] },
		...over,
	};
}
const data = { getGitBranch: () => "main", getExtensionStatuses: () => new Map(), getAvailableProviderCount: () => 1 };

describe("FooterComponent", () => {
	test("running totals given by the caller spare reading the entry list", () => {
		let reads = 0;
		const footer = new FooterComponent(
			session({
				getUsageTotals: () => ({
					input: 1500,
					output: 9,
					cacheRead: 0,
					cacheWrite: 0,
					cost: 0.004,
					latestCacheHitRate: undefined,
				}),
				sessionManager: {
					getCwd: () => "/people/ann/p",
					getSessionName: () => "s",
					getEntries: () => {
						reads++;
						return [];
					},
				},
			}),
			data,
			{ theme: plain, home: "/people/ann" },
		);
		const lines = footer.render(60);
		expect(reads).toBe(0);
		expect(lines[0]).toBe("~/p (main) • s");
		expect(lines[1]).toStartWith("↑1.5k ↓9 $0.004 10.0%/1.0k (auto)");
		expect(lines[1]).toEndWith(" m");
	});

	test("a new session starts the totals over", () => {
		const footer = new FooterComponent(
			session({
				sessionManager: { getCwd: () => "/x", getSessionName: () => undefined, getEntries: () => [assistant(5, 5)] },
			}),
			data,
			{ theme: plain },
		);
		expect(footer.render(60)[1]).toStartWith("↑5 ↓5 ");
		footer.setSession(
			session({
				sessionManager: { getCwd: () => "/x", getSessionName: () => undefined, getEntries: () => [assistant(7, 7)] },
			}),
		);
		expect(footer.render(60)[1]).toStartWith("↑7 ↓7 ");
	});

	test("a frame with unchanged inputs gets the same lines back; any change draws them again", () => {
		let branch = "main";
		let percent = 10;
		let providers = 1;
		const statuses = new Map<string, string>();
		const footer = new FooterComponent(
			session({ getContextUsage: () => ({ contextWindow: 1000, percent }) }),
			{ getGitBranch: () => branch, getExtensionStatuses: () => statuses, getAvailableProviderCount: () => providers },
			{ theme: plain, home: "/people/ann" },
		);
		const first = footer.render(60);
		expect(footer.render(60)).toBe(first);
		const steps: [() => void, (lines: string[]) => void][] = [
			[
				() => {
					branch = "dev";
				},
				(lines) => expect(lines[0]).toBe("~/p (dev)"),
			],
			[
				() => {
					percent = 95;
				},
				(lines) => expect(lines[1]).toStartWith("95.0%/1.0k"),
			],
			[
				() => {
					providers = 2;
				},
				(lines) => expect(lines[1]).toEndWith("(p) m"),
			],
			[
				() => {
					statuses.set("a", "busy");
				},
				(lines) => expect(lines[2]).toBe("busy"),
			],
		];
		let previous = first;
		for (const [change, check] of steps) {
			change();
			const lines = footer.render(60);
			expect(lines).not.toBe(previous);
			check(lines);
			expect(footer.render(60)).toBe(lines);
			previous = lines;
		}
		expect(footer.render(50)).not.toBe(previous);
		expect(footer.render(50)[1]).toHaveLength(50);
	});

	test("experimental marker", () => {
		const footer = new FooterComponent(session(), data, { theme: plain, experimental: true });
		expect(footer.render(80)[1]).toContain("(auto) • xp");
	});
});

describe("HeaderComponent", () => {
	test("name, version and hints; expanded lists every key; quiet draws nothing", () => {
		const header = new HeaderComponent({ version: "1.2.3", theme: plain });
		const collapsed = header.render(100);
		expect(collapsed[0]).toBe("");
		expect(collapsed[1]?.trim()).toBe("pi v1.2.3");
		expect(collapsed[2]).toContain("escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more");
		header.setExpanded(true);
		expect(header.render(100).length).toBeGreaterThan(collapsed.length + 10);
		expect(new HeaderComponent({ version: "1", quiet: true, theme: plain }).render(80)).toEqual([]);
	});

	test("an extension header takes its place and follows expansion", () => {
		const header = new HeaderComponent({ version: "1", theme: plain });
		let expanded = false;
		const custom: Component & { setExpanded(e: boolean): void } = {
			render: () => [expanded ? "BIG" : "small"],
			invalidate: () => {},
			setExpanded: (e) => {
				expanded = e;
			},
		};
		header.setCustomHeader(custom);
		expect(header.render(40)).toEqual(["", "small", ""]);
		header.setExpanded(true);
		expect(header.render(40)).toEqual(["", "BIG", ""]);
		header.setCustomHeader(undefined);
		expect(header.render(40)[1]?.trim()).toBe("pi v1");
	});
});

describe("StartupSummary", () => {
	const summary = {
		loaded: [
			{
				name: "Context",
				labels: ["AGENTS.md", "../AGENTS.md"],
				details: ["~/p/AGENTS.md", "~/AGENTS.md"],
				sort: false,
			},
			{
				name: "Skills",
				labels: ["zeta", "alpha"],
				details: ["~/.pi/agent/skills/zeta/SKILL.md", "~/.pi/agent/skills/alpha/SKILL.md"],
			},
		],
		diagnostics: [{ name: "Skill conflicts", lines: ['  "alpha" defined twice'] }],
	};

	test("compact lists (context files in load order, others sorted), then warnings", () => {
		const lines = new StartupSummary(summary, { theme: plain }).render(80).map((line) => line.trimEnd());
		expect(lines).toEqual([
			"",
			"[Context]",
			"  AGENTS.md, ../AGENTS.md",
			"",
			"[Skills]",
			"  alpha, zeta",
			"",
			"[Skill conflicts]",
			'  "alpha" defined twice',
			"",
		]);
	});

	test("expanded shows one line each; quiet keeps only warnings unless forced", () => {
		const view = new StartupSummary(summary, { theme: plain, expanded: true });
		expect(view.render(80).map((line) => line.trimEnd())).toContain("  ~/.pi/agent/skills/zeta/SKILL.md");
		const quiet = new StartupSummary(summary, { theme: plain, quiet: true }).render(80).map((line) => line.trimEnd());
		expect(quiet).toEqual(["[Skill conflicts]", '  "alpha" defined twice', ""]);
		expect(
			new StartupSummary(summary, { theme: plain, quiet: true, force: true }).render(80).map((line) => line.trimEnd()),
		).toContain("[Skills]");
	});
});

describe("status rows", () => {
	test("working indicator in the border and as a row; idle is two blank rows", () => {
		const working = new WorkingStatusIndicator(undefined, "Working...", { frames: ["*"] }, undefined, plain);
		expect(working.renderInBorder(20)).toBe("* Working...");
		// Too narrow for the first word: the row wraps it away, as in pi.
		expect(working.renderInBorder(4)).toBe("*");
		expect(working.renderSpinnerInBorder(20)).toBe("*");
		working.dispose();
		expect(new IdleStatus().render(3)).toEqual(["   ", "   "]);
	});

	test("countdown ticks each second and expires at zero", async () => {
		const ticks: number[] = [];
		let renders = 0;
		const done = new Promise<void>((resolve) => {
			new CountdownTimer(1000, { requestRender: () => renders++ }, (s) => ticks.push(s), resolve);
		});
		await done;
		expect(ticks).toEqual([1, 0]);
		expect(renders).toBe(1);
	});
});

describe("compactExtensionLabels", () => {
	test("fewest trailing segments that are unique; index files name their folder; packages by name", () => {
		const labels = compactExtensionLabels(
			[
				{ path: "/people/ann/.pi/agent/extensions/plan-mode/index.ts" },
				{ path: "/people/ann/p/.pi/extensions/plan-mode/index.ts" },
				{ path: "/people/ann/p/.pi/extensions/todo.ts" },
				{
					path: "/x/node_modules/pkg/extensions/index.ts",
					source: "npm:@scope/pkg",
					packagePath: "extensions/index.ts",
				},
				{ path: "/x/node_modules/pkg/extensions/a/b.ts", source: "npm:@scope/pkg", packagePath: "extensions/a/b.ts" },
			],
			"/people/ann",
		);
		expect(labels).toEqual([
			"agent/extensions/plan-mode",
			".pi/extensions/plan-mode",
			"todo.ts",
			"@scope/pkg",
			"@scope/pkg:a/b.ts",
		]);
	});
});
