/** `pi --list-models [search]`: a table of the models that have credentials, optionally filtered. */
import type { Model } from "../ai/index.ts";

export function renderModelList(models: Model[], search?: string): string {
	const terms = (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
	const rows = models
		.filter((m) => terms.every((t) => `${m.provider}/${m.id} ${m.name}`.toLowerCase().includes(t)))
		.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id))
		.map((m) => [
			m.provider,
			m.id,
			formatTokens(m.contextWindow),
			formatTokens(m.maxTokens),
			m.reasoning ? "yes" : "no",
			m.input.includes("image") ? "yes" : "no",
		]);
	if (rows.length === 0)
		return search ? `No models match "${search}"\n` : "No models available (no provider has credentials)\n";
	const header = ["provider", "model", "context", "max-out", "thinking", "images"];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) => c.padEnd(widths[i] as number))
			.join("  ")
			.trimEnd();
	return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

function formatTokens(n: number): string {
	if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M`;
	if (n >= 1000) return `${Math.round(n / 1000)}K`;
	return String(n);
}
