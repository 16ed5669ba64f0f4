export function runScenario(core: object, env: object, dir: string): Promise<Record<string, unknown>>;
