/**
 * Interactive conformance scenarios whose essential content differs in ours today, each with the reason.
 * interactive-conformance.test.ts reports these; an unlisted scenario must match pi 0.87.1, and a listed one that
 * matches now fails the test until its line is deleted (the list only shrinks).
 */
const APP_MISSING = "interactive app not built yet";

export const KNOWN_DIFFERENT: Record<string, string> = {
	"timed-confirm": APP_MISSING,
	"confirm-destructive": APP_MISSING,
	"permission-gate": APP_MISSING,
	"send-user-message": APP_MISSING,
	question: APP_MISSING,
	questionnaire: APP_MISSING,
	"status-line": APP_MISSING,
	"custom-footer": APP_MISSING,
	"custom-header": APP_MISSING,
	"widget-placement": APP_MISSING,
	"titlebar-spinner": APP_MISSING,
	"working-indicator": APP_MISSING,
	notify: APP_MISSING,
	"message-renderer": APP_MISSING,
	"modal-editor": APP_MISSING,
	"rainbow-editor": APP_MISSING,
	"overlay-test": APP_MISSING,
	snake: APP_MISSING,
	"tic-tac-toe": APP_MISSING,
	tools: APP_MISSING,
	todo: APP_MISSING,
	preset: APP_MISSING,
	"plan-mode": APP_MISSING,
	"built-in-tool-renderer": APP_MISSING,
	"session-name": APP_MISSING,
	"model-status": APP_MISSING,
	"hidden-thinking-label": APP_MISSING,
	"entry-renderer": APP_MISSING,
	bookmark: APP_MISSING,
};
