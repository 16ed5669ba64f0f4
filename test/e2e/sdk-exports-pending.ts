const INTERACTIVE =
	"the interactive-mode issue (issue 16 item 8 leaves the components to it): pi's constructor takes pi's session, settings, registry or tree objects, which ours must accept first";
const LOGIN = "issue 22 (subscription logins): the login dialog and OAuth provider list come with /login";
const SINCLAIR =
	"pi 0.87.1 aliases it to TypeBox 1.x (served here as `typebox`); ours keeps the real @sinclair/typebox 0.34 that extensions written for pi <= 0.73 import (0.34's `Kind`, `TypeGuard`, `/compiler`)";

/**
 * Names pi 0.87.1 exports to extensions that ours does not have yet, each with who brings it
 * (`<module>:<name>` → owner or reason; `<module>` is pi's specifier without its scope, and `pi-ai` stands for the
 * pi-ai root and `/compat`, which pi serves as one module). sdk-exports.test.ts fails on a missing name not listed
 * here, and on a listed name that has arrived: when you add one, delete its line.
 */
export const NOT_YET: Record<string, string> = {
	// pi-coding-agent: 9 interactive-mode components, with their constructors as pi takes them
	"pi-coding-agent:ArminComponent":
		"pi's animated XBM picture (an easter egg): the picture is pi's content, not a fact to carry over; ours would need art of its own",
	"pi-coding-agent:InteractiveMode":
		"the interactive-mode issue: pi's whole terminal app as a class (constructed from pi's AgentSession runtime); ours runs through main()",
	"pi-coding-agent:LoginDialogComponent": LOGIN,
	"pi-coding-agent:ModelSelectorComponent": INTERACTIVE,
	"pi-coding-agent:OAuthSelectorComponent": LOGIN,
	"pi-coding-agent:SessionSelectorComponent": INTERACTIVE,
	"pi-coding-agent:SettingsSelectorComponent": INTERACTIVE,
	"pi-coding-agent:ThemeSelectorComponent":
		"the interactive-mode issue: pi lists built-in, theme-folder and package-registered themes from a process-wide registry that ours does not keep",
	"pi-coding-agent:TreeSelectorComponent": INTERACTIVE,
};

/**
 * Modules pi 0.87.1 serves to extensions that ours serves differently on purpose (specifier → why); their names are
 * not compared.
 */
export const DIVERGENT: Record<string, string> = {
	"@sinclair/typebox": SINCLAIR,
	"@sinclair/typebox/compile": SINCLAIR,
	"@sinclair/typebox/value": SINCLAIR,
};
