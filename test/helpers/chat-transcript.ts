/**
 * A `ChatTranscript` mounted on a `TuiMainScreen` over a headless terminal, and a real `AgentSession` (scripted
 * replies, the built-in tools in a temp folder) whose events it is fed — what the interactive app does, without
 * the app.
 */

import {
	type Context,
	createAssistantMessageEventStream,
	MessageBuilder,
	type Model,
	type SimpleStreamOptions,
} from "../../src/ai/index.ts";
import { ChatTranscript, type ChatTranscriptOptions, withBuiltInRenderers } from "../../src/modes/interactive/index.ts";
import { createAgentSession, type SessionEvent } from "../../src/runtime/index.ts";
import { initTheme } from "../../src/sdk/pi-coding-agent.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { KeybindingsManager, setKeybindings, TUI_KEYBINDINGS, TuiMainScreen } from "../../src/tui/index.ts";
import { type ScriptStep, scriptedStream, testModel } from "../support/scripted-stream.ts";
import { linesOnScreen, VirtualTerminal } from "./screen.ts";

initTheme("dark");
// pi's app keys as far as the transcript shows them
setKeybindings(new KeybindingsManager({ ...TUI_KEYBINDINGS, "app.tools.expand": { defaultKeys: "ctrl+o" } }));

export interface MountedTranscript {
	term: VirtualTerminal;
	tui: TuiMainScreen;
	transcript: ChatTranscript;
	/** Draws now and returns every row the chat has drawn (scrollback and screen), right-trimmed, trailing blanks cut. */
	screen(): Promise<string[]>;
	/** The transcript's rows as the terminal would show them now (for snapshots taken while events arrive). */
	snapshot(): Promise<string[]>;
	/** The transcript's raw rendered lines (with escapes) now. */
	raw(): string[];
	dispose(): void;
}

export function mountTranscript(
	options: Partial<ChatTranscriptOptions> & { cwd: string },
	columns = 80,
	rows = 30,
): MountedTranscript {
	const term = new VirtualTerminal(columns, rows);
	const tui = new TuiMainScreen(term);
	const transcript = new ChatTranscript({
		ui: tui,
		getToolDefinition: (name) => withBuiltInRenderers(name),
		...options,
	});
	tui.addChild(transcript);
	const trim = (lines: string[]) => {
		const out = lines.map((line) => line.trimEnd());
		while (out.length > 0 && out[out.length - 1] === "") out.pop();
		return out;
	};
	return {
		term,
		tui,
		transcript,
		async screen() {
			tui.renderNow();
			const screen = await term.screen();
			return trim([...screen.scrollback, ...screen.lines]);
		},
		snapshot: async () => trim(await linesOnScreen(transcript.render(columns), columns)),
		raw: () => transcript.render(columns),
		dispose: () => term.dispose(),
	};
}

/** A session with the built-in tools in `cwd`, replying with `steps`, its events going to `listener` first. */
export function scriptedSession(
	cwd: string,
	steps: ScriptStep[],
	listener: (event: SessionEvent) => void,
	streamFn?: (model: Model, context: Context, options?: SimpleStreamOptions) => unknown,
) {
	const script = scriptedStream(steps);
	const tools = [...createBuiltinTools(cwd).values()];
	const session = createAgentSession({
		model: testModel,
		thinkingLevel: "off",
		tools,
		systemPrompt: "sys",
		getApiKey: () => "k",
		streamFn: (streamFn ?? script.fn) as typeof script.fn,
		retry: { enabled: false, maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
		cwd,
	});
	session.subscribe((event) => listener(event));
	return { session, script };
}

/** The background escape a theme colour starts with (to tell pending, done and failed tool boxes apart). */
export function bgStart(paint: (text: string) => string): string {
	return paint("X").split("X")[0] ?? "";
}

/** One reply streamed in the given text pieces, each after the listeners had a tick to draw the previous one. */
export function pacedReply(pieces: string[]) {
	return (model: Model, _context: Context, options?: SimpleStreamOptions) => {
		const stream = createAssistantMessageEventStream();
		const builder = new MessageBuilder(model, stream);
		void (async () => {
			builder.start();
			for (const piece of pieces) {
				await Bun.sleep(5);
				if (options?.signal?.aborted) return builder.fail("Request was aborted", "aborted");
				builder.text(piece);
			}
			builder.usage({ input: 10, output: 5 });
			builder.finish("stop");
		})();
		return stream;
	};
}
