/**
 * Release size against pi's own release: per target our binary and archive beside pi 0.87.1's (rebuilt from its
 * npm package, see pi-reference.ts) and the ratios. Our archive (what a user downloads) must not be larger than
 * pi's for the same target.
 */
import type { PiReference } from "./pi-reference.ts";

export interface OurSize {
	target: string;
	binarySize: number;
	archiveSize: number;
}

export interface SizeRow {
	ours: OurSize;
	pi: PiReference;
	binaryRatio: number;
	archiveRatio: number;
	/** Our archive is no larger than pi's. */
	ok: boolean;
}

export function compareSize(ours: OurSize, pi: PiReference): SizeRow {
	const archiveRatio = ours.archiveSize / pi.archiveSize;
	return {
		ours,
		pi,
		binaryRatio: ours.binarySize / pi.binarySize,
		archiveRatio,
		ok: ours.archiveSize <= pi.archiveSize,
	};
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(1);

/** The table, one line per target, and a last line saying whether every archive is within pi's. */
export function sizeTable(rows: readonly SizeRow[]): string[] {
	const head = [
		"target".padEnd(20),
		"ours bin".padStart(9),
		"ours arch".padStart(10),
		"pi bin".padStart(9),
		"pi arch".padStart(9),
		"bin ratio".padStart(10),
		"arch ratio".padStart(11),
	].join(" ");
	const lines = [`${head}   (MiB; pi ${rows[0]?.pi.piVersion ?? "?"} rebuilt from its npm package)`];
	for (const row of rows) {
		lines.push(
			[
				row.ours.target.padEnd(20),
				mib(row.ours.binarySize).padStart(9),
				mib(row.ours.archiveSize).padStart(10),
				mib(row.pi.binarySize).padStart(9),
				mib(row.pi.archiveSize).padStart(9),
				row.binaryRatio.toFixed(3).padStart(10),
				row.archiveRatio.toFixed(3).padStart(11),
				row.ok ? "" : "  LARGER THAN PI'S",
			].join(" "),
		);
	}
	const over = rows.filter((r) => !r.ok).map((r) => r.ours.target);
	lines.push(
		over.length === 0
			? `size: every archive is within pi's (${rows.length} target${rows.length === 1 ? "" : "s"})`
			: `size: our archive is larger than pi's for ${over.join(", ")}`,
	);
	return lines;
}
