/** Every interactive conformance scenario, by example name. */
import type { InteractiveScenario } from "./interactive-scenarios.ts";
import { CHROME_SCENARIOS } from "./interactive-scenarios-chrome.ts";
import { CUSTOM_SCENARIOS } from "./interactive-scenarios-custom.ts";
import { DIALOG_SCENARIOS } from "./interactive-scenarios-dialogs.ts";
import { EXTRA_SCENARIOS } from "./interactive-scenarios-extra.ts";

export const INTERACTIVE_SCENARIOS: InteractiveScenario[] = [
	...DIALOG_SCENARIOS,
	...CHROME_SCENARIOS,
	...CUSTOM_SCENARIOS,
	...EXTRA_SCENARIOS,
];
