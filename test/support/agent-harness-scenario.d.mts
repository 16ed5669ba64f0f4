export function runHarnessScenario(
	core: object,
	ai: object,
	env: object,
	dir: string,
): Promise<Record<string, unknown>>;
