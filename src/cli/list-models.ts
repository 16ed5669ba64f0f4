/**
 * `pi --list-models [search]`: a table of the models that have credentials. The search is fuzzy, as in pi: it is
 * split at spaces and slashes, and every piece must appear, in order, in "provider id".
 */
import type { Model } from "../ai/index.ts";
import { fuzzyFilter } from "../util/index.ts";

export function renderModelList(models: Model[], search?: string): string {
	if (models.length === 0) return "No models available (no provider has credentials)\n";
	const matching = search ? fuzzyFilter(models, search, (m) => `${m.provider} ${m.id}`) : models;
	if (matching.length === 0) return `No models matching "${search}"\n`;
	const rows = [...matching]
		.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id))
		.map((m) => [
			m.provider,
			m.id,
			formatTokens(m.contextWindow),
			formatTokens(m.maxTokens),
			m.reasoning ? "yes" : "no",
			m.input.includes("image") ? "yes" : "no",
		]);
	const header = ["provider", "model", "context", "max-out", "thinking", "images"];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
	// Every column is padded, the last one too (pi's lines end in spaces).
	const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join("  ");
	return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

/** 200000 → "200K", 8192 → "8.2K", 1000000 → "1M", 1500000 → "1.5M". */
export function formatTokens(n: number): string {
	const scaled = (value: number, unit: string) => `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
	if (n >= 1_000_000) return scaled(n / 1_000_000, "M");
	if (n >= 1000) return scaled(n / 1000, "K");
	return String(n);
}
