/** The platforms a release is built for: archive name, Bun compile target, and the npm package of its Bun runtime. */

export interface ReleaseTarget {
	/** The name in archive and manifest (`pi-<name>.tar.gz`). */
	name: string;
	/** `bun build --compile --target=…`. */
	bunTarget: string;
	/** The npm package holding that target's Bun runtime (pinned to package.json's Bun version). */
	runtimePackage: string;
	os: "linux" | "darwin" | "windows";
	arch: "x64" | "arm64";
	/** linux: linked against musl libc (Alpine) instead of glibc. */
	musl?: boolean;
	/** x64 without AVX2. */
	baseline?: boolean;
}

export const TARGETS: readonly ReleaseTarget[] = [
	{ name: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", os: "linux", arch: "x64" },
	{
		name: "linux-x64-baseline",
		bunTarget: "bun-linux-x64-baseline",
		runtimePackage: "@oven/bun-linux-x64-baseline",
		os: "linux",
		arch: "x64",
		baseline: true,
	},
	{
		name: "linux-arm64",
		bunTarget: "bun-linux-arm64",
		runtimePackage: "@oven/bun-linux-aarch64",
		os: "linux",
		arch: "arm64",
	},
	{
		name: "linux-x64-musl",
		bunTarget: "bun-linux-x64-musl",
		runtimePackage: "@oven/bun-linux-x64-musl",
		os: "linux",
		arch: "x64",
		musl: true,
	},
	{
		name: "linux-arm64-musl",
		bunTarget: "bun-linux-arm64-musl",
		runtimePackage: "@oven/bun-linux-aarch64-musl",
		os: "linux",
		arch: "arm64",
		musl: true,
	},
	{
		name: "darwin-x64",
		bunTarget: "bun-darwin-x64",
		runtimePackage: "@oven/bun-darwin-x64",
		os: "darwin",
		arch: "x64",
	},
	{
		name: "darwin-arm64",
		bunTarget: "bun-darwin-arm64",
		runtimePackage: "@oven/bun-darwin-aarch64",
		os: "darwin",
		arch: "arm64",
	},
	{
		name: "windows-x64",
		bunTarget: "bun-windows-x64",
		runtimePackage: "@oven/bun-windows-x64",
		os: "windows",
		arch: "x64",
	},
];

export const executableName = (target: ReleaseTarget): string => (target.os === "windows" ? "pi.exe" : "pi");
export const archiveName = (target: ReleaseTarget): string =>
	`pi-${target.name}${target.os === "windows" ? ".zip" : ".tar.gz"}`;

/** The targets named in `list` (comma-separated), or every target; an unknown name is an error naming it. */
export function selectTargets(list: string | undefined): ReleaseTarget[] {
	if (!list) return [...TARGETS];
	return list.split(",").map((name) => {
		const found = TARGETS.find((t) => t.name === name.trim());
		if (!found) {
			throw new Error(`--targets: unknown target "${name}" (known: ${TARGETS.map((t) => t.name).join(", ")})`);
		}
		return found;
	});
}
