/**
 * The packages the package-manager bench installs from the loopback registry:
 * - `bench-target`, a pi package (an extension and a skill) whose dependency closure holds `deps` packages (two
 *   thirds direct, one third one level down), each carrying `depKb` KiB of JavaScript;
 * - `bench-pkg-01` … `bench-pkg-<n>`, small pi packages for `pi list` and start-up: each gives one prompt template
 *   and one skill (`kind: "resources"`), or also a tiny extension (`kind: "extensions"`).
 */
import type { FakePackage } from "../../test/support/npm-registry.ts";

export type PackageKind = "resources" | "extensions";

const pad = (n: number) => String(n).padStart(2, "0");

/** `kb` KiB of plausible, non-repeating JavaScript (compresses like real code, not like zeros). */
function sourceOf(name: string, kb: number): string {
	const lines: string[] = [`"use strict";`, `// ${name}`];
	let size = 0;
	for (let i = 0; size < kb * 1024; i++) {
		const line = `exports.f${i} = function f${i}(a, b) { return (a * ${(i * 2654435761) % 9973} + b) ^ ${i}; };`;
		lines.push(line);
		size += line.length + 1;
	}
	return `${lines.join("\n")}\n`;
}

function library(name: string, depKb: number, dependencies?: Record<string, string>): FakePackage {
	return {
		name,
		version: "1.0.0",
		...(dependencies ? { dependencies } : {}),
		files: {
			"index.js": sourceOf(name, depKb),
			"README.md": `# ${name}\n\nA dependency of the package-manager bench.\n`,
			LICENSE: "MIT\n",
		},
	};
}

/** `bench-target` and its dependency closure of `deps` packages. */
export function targetPackages(deps: number, depKb: number): { target: FakePackage; all: FakePackage[] } {
	const nested = Math.floor(deps / 3);
	const direct = deps - nested;
	const all: FakePackage[] = [];
	const dependencies: Record<string, string> = {};
	for (let i = 1; i <= direct; i++) {
		const name = `bench-dep-${pad(i)}`;
		dependencies[name] = "^1.0.0";
		const child = i <= nested ? `bench-sub-${pad(i)}` : undefined;
		all.push(library(name, depKb, child ? { [child]: "^1.0.0" } : undefined));
		if (child) all.push(library(child, depKb));
	}
	const target: FakePackage = {
		name: "bench-target",
		version: "1.0.0",
		dependencies,
		pi: { extensions: ["./extensions"], skills: ["./skills"] },
		files: {
			"extensions/index.ts": `import dep from "bench-dep-01";\nexport default function (pi) { void dep; }\n`,
			"skills/bench-skill/SKILL.md": "---\nname: bench-skill\ndescription: A skill of the bench target.\n---\nBody.\n",
			"README.md": "# bench-target\n",
		},
	};
	all.push(target);
	return { target, all };
}

/** The `count` small pi packages, named `bench-pkg-01` …. */
export function smallPackages(count: number, kind: PackageKind): FakePackage[] {
	return Array.from({ length: count }, (_, index) => {
		const n = pad(index + 1);
		const files: Record<string, string> = {
			[`prompts/p${n}.md`]: `---\ndescription: Prompt ${n} of the bench\n---\nSay ${n}.\n`,
			[`skills/s${n}/SKILL.md`]: `---\nname: s${n}\ndescription: Skill ${n} of the bench.\n---\nDo ${n}.\n`,
		};
		const pi: Record<string, string[]> = { prompts: ["./prompts"], skills: ["./skills"] };
		if (kind === "extensions") {
			files["extensions/index.ts"] = `export default function (pi) { void pi; }\n`;
			pi.extensions = ["./extensions"];
		}
		return { name: `bench-pkg-${n}`, version: "1.0.0", pi, files };
	});
}
