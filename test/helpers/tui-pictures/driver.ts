/**
 * Draws pictures of example extensions: loads each one with the recording API, plays its scenario (events,
 * commands, tool calls, keys, timer ticks) under a pinned clock, and renders every component it showed at each
 * width. The result maps `<extension>/<picture>` → width → rendered lines (with their escapes; the test reads
 * them through a terminal emulator). Host-neutral: pi's modules under Node 22, ours under Bun.
 */
import { installClock, type PinnedClock } from "./clock.ts";
import { createRecording, type DrawableComponent, type PictureHost, type Recording } from "./recorder.ts";
import type { PictureScenario, PictureStep } from "./scenarios.ts";

export type Pictures = Record<string, Record<string, string[]>>;

const realSetImmediate = globalThis.setImmediate;

async function settle(rounds = 5): Promise<void> {
	for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => realSetImmediate(() => resolve()));
}

function errorLine(error: unknown): string[] {
	const message = error instanceof Error ? error.message : String(error);
	return [`!error: ${message.split("\n")[0]}`];
}

function drawAt(component: DrawableComponent, widths: readonly number[], rec: Recording): Record<string, string[]> {
	const byWidth: Record<string, string[]> = {};
	for (const width of widths) {
		rec.width = width;
		try {
			byWidth[width] = component.render(width);
		} catch (error) {
			byWidth[width] = errorLine(error);
		}
	}
	rec.width = 80;
	return byWidth;
}

/** The component keys go to: the newest open custom component or overlay, else the editor. */
function focused(rec: Recording): DrawableComponent | undefined {
	const open = rec.live.filter((entry) => !entry.closed);
	return open[open.length - 1]?.component ?? rec.editor?.component;
}

async function runStep(
	step: PictureStep,
	rec: Recording,
	clock: PinnedClock,
	widths: readonly number[],
	out: Pictures,
	prefix: string,
): Promise<void> {
	const ctx = rec.ctx;
	switch (step.type) {
		case "event":
			for (const handler of rec.handlers.get(step.name) ?? []) {
				await handler({ type: step.name, ...(step.event ?? {}) }, ctx);
			}
			return;
		case "command": {
			const command = rec.commands.get(step.name);
			if (!command) throw new Error(`no command /${step.name}`);
			// Not awaited: a command waits for its dialog to close.
			Promise.resolve(command.handler(step.args ?? "", ctx)).catch(() => {});
			await settle();
			return;
		}
		case "execute": {
			const tool = rec.tools.get(step.tool);
			if (!tool?.execute) throw new Error(`no tool ${step.tool}`);
			Promise.resolve(tool.execute("call_1", step.params, undefined, () => {}, ctx)).catch(() => {});
			await settle();
			return;
		}
		case "keys":
			for (const key of step.keys) {
				focused(rec)?.handleInput?.(key);
				await settle(1);
			}
			return;
		case "tick":
			for (let i = 0; i < step.count; i++) clock.tick();
			await settle(1);
			return;
		case "draw": {
			const surfaces: Array<[string, DrawableComponent]> = [];
			if (rec.header) surfaces.push(["header", rec.header.component]);
			for (const [key, widget] of rec.widgets) surfaces.push([`widget:${key}`, widget.component]);
			rec.live.forEach((entry, i) => {
				if (!entry.closed) surfaces.push([`${entry.kind}#${i}`, entry.component]);
			});
			if (rec.editor) surfaces.push(["editor", rec.editor.component]);
			if (rec.footer) surfaces.push(["footer", rec.footer.component]);
			for (const [name, component] of surfaces) out[`${prefix}/${step.label}/${name}`] = drawAt(component, widths, rec);
			return;
		}
		case "tool-render": {
			const tool = rec.tools.get(step.tool);
			if (!tool) throw new Error(`no tool ${step.tool}`);
			const expanded = step.expanded ?? false;
			const context = {
				args: step.args,
				toolCallId: "call_1",
				invalidate() {},
				lastComponent: undefined,
				state: {},
				cwd: ctx.cwd,
				executionStarted: true,
				argsComplete: true,
				isPartial: false,
				expanded,
				showImages: false,
				isError: step.isError ?? false,
			};
			const theme = (ctx.ui as { theme: unknown }).theme;
			if (tool.renderCall) {
				const component = tool.renderCall(step.args, theme, context) as DrawableComponent;
				out[`${prefix}/${step.label}/call`] = drawAt(component, widths, rec);
			}
			if (tool.renderResult && step.result) {
				const options = { expanded, isPartial: false };
				const component = tool.renderResult(step.result, options, theme, context) as DrawableComponent;
				out[`${prefix}/${step.label}/result`] = drawAt(component, widths, rec);
			}
			return;
		}
		case "entry-render": {
			const entry = [...rec.appendedEntries].reverse().find((e) => e.customType === step.customType);
			if (!entry) throw new Error(`no entry of type ${step.customType}`);
			const renderer = rec.entryRenderers.get(step.customType);
			if (!renderer) throw new Error(`no entry renderer for ${step.customType}`);
			const theme = (ctx.ui as { theme: unknown }).theme;
			const sessionEntry = {
				type: "custom",
				id: "e1",
				parentId: "m2",
				timestamp: "2025-01-15T12:00:02.000Z",
				customType: entry.customType,
				data: entry.data,
			};
			const component = renderer(sessionEntry, { expanded: step.expanded ?? false }, theme) as
				| DrawableComponent
				| undefined;
			out[`${prefix}/${step.label}`] = component ? drawAt(component, widths, rec) : {};
			return;
		}
		case "message-render": {
			const message =
				step.message ?? [...rec.sentMessages].reverse().find((sent) => sent.customType === step.customType);
			if (!message) throw new Error(`no message of type ${step.customType}`);
			const renderer = rec.messageRenderers.get(String(message.customType));
			if (!renderer) throw new Error(`no renderer for ${String(message.customType)}`);
			const theme = (ctx.ui as { theme: unknown }).theme;
			const component = renderer(
				{ role: "custom", timestamp: Date.now(), ...message },
				{ expanded: step.expanded ?? false, outputPad: 1 },
				theme,
			) as DrawableComponent | undefined;
			out[`${prefix}/${step.label}`] = component ? drawAt(component, widths, rec) : {};
			return;
		}
	}
}

/** Pictures of every scenario; a failing step is drawn as one `!error:` line so both sides still compare. */
export async function drawPictures(
	host: PictureHost,
	scenarios: readonly PictureScenario[],
	examplesDir: string,
	cwd: string,
	widths: readonly number[],
): Promise<Pictures> {
	const out: Pictures = {};
	for (const scenario of scenarios) {
		const prefix = scenario.name ?? scenario.extension;
		const rec = createRecording(host, cwd);
		let clock: PinnedClock | undefined;
		try {
			const factory = await host.loadFactory(`${examplesDir}/${scenario.extension}.ts`);
			clock = installClock();
			await factory(rec.api);
			for (const step of scenario.steps) {
				try {
					await runStep(step, rec, clock, widths, out, prefix);
				} catch (error) {
					out[`${prefix}/step-error/${step.type}`] = { all: errorLine(error) };
				}
			}
			if (rec.notifications.length > 0) out[`${prefix}/notifications`] = { all: rec.notifications };
		} catch (error) {
			out[`${prefix}/load-error`] = { all: errorLine(error) };
		} finally {
			for (const entry of rec.live) entry.component?.dispose?.();
			clock?.restore();
		}
	}
	return out;
}
