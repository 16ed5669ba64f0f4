/**
 * `pi update <source>`, `--extension <source>`, `--extensions` and the package half of `--all`: asks the manager
 * for the plan, prints it (`npm:foo 1.0.0 → 1.2.0`; pinned, current and missing packages say so), then applies the
 * items that move and ends with pi's `Updated <source>` / `Updated packages`.
 */
import type { PackageManager, UpdatePlanItem } from "../../packages/index.ts";
import { UserError } from "../../util/index.ts";

function planLine(item: UpdatePlanItem): string {
	const scope = item.scope === "project" ? " (project)" : "";
	switch (item.status) {
		case "update":
			return `  ${item.source}${scope} ${item.from ?? "?"} → ${item.to ?? "?"}`;
		case "current":
			return `  ${item.source}${scope} ${item.from ?? ""}${item.from ? " " : ""}(up to date)`;
		case "pinned":
			return `  ${item.source}${scope} ${item.from ?? ""}${item.from ? " " : ""}(pinned; change the version or ref in settings to move it)`;
		case "missing":
			return `  ${item.source}${scope} (not installed; pi install ${item.source}${item.scope === "project" ? " -l" : ""} installs it)`;
	}
}

export async function updatePackages(
	manager: PackageManager,
	source: string | undefined,
	out: (line: string) => void,
): Promise<void> {
	const plan = await manager.planUpdate(source);
	if (source && plan.length === 0) throw new UserError(`No matching package found for ${source}`);
	if (plan.length === 0) {
		out("No packages to update.");
		return;
	}
	out(source ? "Update plan:" : "Update plan for every package:");
	for (const item of plan) out(planLine(item));
	if (plan.some((item) => item.status === "update")) await manager.applyUpdate(plan);
	out(source ? `Updated ${source}` : "Updated packages");
}
