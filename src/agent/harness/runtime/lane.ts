/**
 * One lane of the harness (pi's `AgentLane`): accepting runs (prompt, skill, prompt template), driving them,
 * aborting, resuming an operation left open, waiting for idle, queues and configuration.
 */
import type { ImageContent, Model, Usage } from "../../../ai/index.ts";
import type { AgentMessage, ThinkingLevel } from "../../types.ts";
import { awaitWithContext, type Context, withoutAbortSignal } from "../context.ts";
import { NoActiveOperation, NothingToResume, OperationMismatch, Result } from "../result.ts";
import type { BranchScan, Entry, JsonValue, OperationResultRecord } from "../session/types.ts";
import { deleteValue, operationResult, operationState, pendingEntry, setValue } from "../session/values.ts";
import { acceptRun } from "./lane-accept.ts";
import { LaneCore } from "./lane-core.ts";
import * as inbox from "./lane-inbox.ts";
import type { LaneSnapshot } from "./reducer.ts";
import { driveRun } from "./run.ts";
import type { RunState } from "./steps.ts";
import { readLaneQueues, readPending } from "./transcript.ts";
import type {
	AbortRequestResult,
	AbortResult,
	DriveOptions,
	DriveResult,
	HarnessEvent,
	LaneExecutionInfo,
	ModelIdentity,
	OperationAdmissionResult,
	OperationRequest,
	ResumeResult,
	RunResult,
} from "./types.ts";
import { type WatchHandle, watchLane } from "./watch.ts";

function capturedModel(state: RunState): { capturedModel?: ModelIdentity } {
	switch (state.at) {
		case "assistant.ready":
		case "assistant.effect_pending":
		case "assistant.retry_wait":
			return { capturedModel: state.configuration.model };
		case "tools":
			return { capturedModel: state.batch.configuration.model };
		default:
			return {};
	}
}

export class Lane extends LaneCore {
	async getTipId(_context: Context): Promise<string | null> {
		this.assertOpen();
		return this.state.tipId;
	}
	async getResult(operationId: string, context: Context): Promise<OperationResultRecord | undefined> {
		this.assertOpen();
		return (await this.session.getValue(operationResult(operationId), context))?.value;
	}
	async findEntries(query: BranchScan | undefined, context: Context): Promise<Entry[]> {
		this.assertOpen();
		const start = query?.start ?? this.state.tipId;
		return start === null
			? []
			: this.session.scanBranch({ ...query, start, order: query?.order ?? "newestFirst" }, context);
	}
	async findEntry(query: BranchScan | undefined, context: Context): Promise<Entry | undefined> {
		const limit = query?.limit === undefined ? 1 : Math.min(query.limit, 1);
		return (await this.findEntries({ ...query, limit }, context))[0];
	}
	appendMessage(message: AgentMessage, context: Context): Promise<string> {
		return inbox.append(this, { type: "message", payload: message }, context);
	}
	appendCustomEntry(customType: string, data: JsonValue | undefined, context: Context): Promise<string> {
		return inbox.appendCustom(this, customType, data, context);
	}

	/** Admit a run: its prompt (and consumed next-run/queued input) is committed and the lane becomes busy. */
	accept(request: OperationRequest, context: Context): Promise<OperationAdmissionResult> {
		return acceptRun(this, request, context);
	}

	/** Drive the lane's current operation (or report the settled result of an earlier one). */
	async drive(options: DriveOptions, context: Context): Promise<DriveResult> {
		const closed = this.closedResult();
		if (closed !== undefined) return Result.err(closed);
		for (;;) {
			context.abortSignal?.throwIfAborted();
			const active = this.activeDrive;
			if (active !== undefined) {
				if (active.operationId !== options.operationId) {
					await awaitWithContext(
						active.completion.catch(() => undefined),
						context,
					);
					continue;
				}
				return Result.ok(await awaitWithContext(active.completion, context));
			}
			if (this.state.operation?.meta.operationId === options.operationId) {
				const controller = new AbortController();
				if (this.state.operation.state.control.status === "cancel_requested") controller.abort();
				const driveContext = withoutAbortSignal(context);
				const drive = {
					operationId: options.operationId,
					waitForRetry: options.waitForRetry === true,
					signal: controller.signal,
					context: driveContext,
				};
				const completion = driveRun(this, drive).catch((error: unknown) => {
					throw this.closedError ?? this.services.fault(error, context);
				});
				const owned = { operationId: options.operationId, controller, completion };
				this.activeDrive = owned;
				this.notify();
				void completion.then(
					() => this.release(owned),
					() => this.release(owned),
				);
				continue;
			}
			const stored = await this.session.getValue(operationResult(options.operationId), context);
			if (stored !== undefined) return Result.ok({ kind: "settled", outcome: stored.value });
			const currentId = this.state.operation?.meta.operationId;
			return Result.err(
				new OperationMismatch({
					lane: this.name,
					expectedOperationId: options.operationId,
					...(currentId === undefined ? {} : { currentOperationId: currentId }),
					...(this.state.lastOperationId === null ? {} : { lastOperationId: this.state.lastOperationId }),
					message: `Operation ${options.operationId} does not own lane ${JSON.stringify(this.name)}`,
				}),
			);
		}
	}

	private release(owned: { operationId: string }): void {
		if (this.activeDrive === owned) {
			this.activeDrive = undefined;
			this.notify();
		}
	}

	private async acceptAndDrive(request: OperationRequest, context: Context): Promise<RunResult> {
		const admission = await this.accept(request, context);
		if (!admission.ok) return admission;
		const driven = await this.drive({ operationId: admission.value.operationId, waitForRetry: true }, context);
		if (!driven.ok) {
			if (driven.error._tag === "Closed") return Result.err(driven.error);
			throw this.services.fault(
				new Error(`Accepted run ${admission.value.operationId} no longer matches its lane`),
				context,
			);
		}
		if (driven.value.kind !== "settled")
			throw new Error(`Run ${admission.value.operationId} returned an unwaited retry`);
		return Result.ok(driven.value.outcome);
	}

	prompt(text: string, images: ImageContent[] | undefined, context: Context): Promise<RunResult>;
	prompt(message: AgentMessage | AgentMessage[], context: Context): Promise<RunResult>;
	prompt(
		...args: [string, ImageContent[] | undefined, Context] | [AgentMessage | AgentMessage[], Context]
	): Promise<RunResult> {
		if (args.length === 3) {
			const [text, images, context] = args;
			return this.acceptAndDrive(
				{ kind: "prompt", prompt: text, ...(images === undefined ? {} : { images }) },
				context,
			);
		}
		return this.acceptAndDrive({ kind: "prompt", prompt: args[0] }, args[1]);
	}
	skill(name: string, additionalInstructions: string | undefined, context: Context): Promise<RunResult> {
		const extra = additionalInstructions === undefined ? {} : { additionalInstructions };
		return this.acceptAndDrive({ kind: "skill", name, ...extra }, context);
	}
	promptFromTemplate(name: string, args: string[] | undefined, context: Context): Promise<RunResult> {
		return this.acceptAndDrive({ kind: "prompt_template", name, ...(args === undefined ? {} : { args }) }, context);
	}

	/** Continue an operation left open (e.g. by a crash) from its last durable step. */
	async resume(context: Context): Promise<ResumeResult> {
		const closed = this.closedResult();
		if (closed !== undefined) return Result.err(closed);
		const operationId = this.state.operation?.meta.operationId;
		if (operationId === undefined) {
			return Result.err(
				new NothingToResume({
					lane: this.name,
					message: `Lane ${JSON.stringify(this.name)} has no active operation to resume`,
				}),
			);
		}
		const driven = await this.drive({ operationId, pollDeferred: true, waitForRetry: true }, context);
		if (!driven.ok) {
			if (driven.error._tag === "Closed") return Result.err(driven.error);
			throw this.services.fault(new Error(`Operation ${operationId} no longer matches its lane`), context);
		}
		if (driven.value.kind !== "settled") throw new Error(`Operation ${operationId} returned an unwaited retry`);
		return Result.ok(driven.value.outcome);
	}

	/** Mark the operation cancelled (durably), hand back queued steering and follow-ups, and stop its effects. */
	async requestAbort(operationId: string, context: Context): Promise<AbortRequestResult> {
		const closed = this.closedResult();
		if (closed !== undefined) return Result.err(closed);
		const result = await this.command<AbortRequestResult>(async (state, reader) => {
			const operation = state.operation;
			if (operation?.meta.operationId !== operationId) {
				return {
					kind: "return",
					result: Result.err(
						new OperationMismatch({
							lane: this.name,
							expectedOperationId: operationId,
							...(operation === null ? {} : { currentOperationId: operation.meta.operationId }),
							...(state.lastOperationId === null ? {} : { lastOperationId: state.lastOperationId }),
							message: `Operation ${operationId} does not own lane ${JSON.stringify(this.name)}`,
						}),
					),
				};
			}
			if (operation.state.control.status === "cancel_requested") {
				return { kind: "return", result: Result.ok({ operationId, newlyRequested: false, steer: [], followUp: [] }) };
			}
			const removed = state.inbox.filter((item) => item.kind === "steer" || item.kind === "followUp");
			const payloads = await Promise.all(
				removed.map(async (item) => ({ item, pending: await readPending(reader, item, context) })),
			);
			const pick = (kind: string) =>
				payloads.flatMap(({ item, pending }) =>
					item.kind === kind && pending.type === "message" ? [pending.payload] : [],
				);
			const steer = pick("steer");
			const followUp = pick("followUp");
			const rest = state.inbox.filter((item) => !removed.includes(item));
			const queues = await readLaneQueues(reader, rest, context);
			const opState = { ...operation.state, control: { status: "cancel_requested" as const, requestedAt: Date.now() } };
			return {
				kind: "commit",
				writes: [
					...removed.map((item) => deleteValue(pendingEntry(item.entryId))),
					setValue(operationState(operationId), opState),
					this.laneStateWrite(operationId, rest),
				],
				next: { ...state, inbox: rest, operation: { meta: operation.meta, state: opState } },
				result: () => Result.ok({ operationId, newlyRequested: true, steer, followUp }),
				events: () => [
					{ type: "operation_abort", operationId, steer, followUp, lane: this.name } as HarnessEvent,
					...(removed.length === 0 ? [] : [{ type: "queue_update", queues, lane: this.name } as HarnessEvent]),
				],
			};
		}, context);
		if (result.ok) this.activeDrive?.controller.abort(new Error("Abort requested"));
		return result;
	}

	async abort(context: Context): Promise<AbortResult> {
		const closed = this.closedResult();
		if (closed !== undefined) return Result.err(closed);
		const operationId = this.state.operation?.meta.operationId;
		const none = (message: string) => Result.err(new NoActiveOperation({ lane: this.name, message }));
		if (operationId === undefined) return none(`Lane ${JSON.stringify(this.name)} has no active operation`);
		const requested = await this.requestAbort(operationId, context);
		if (!requested.ok) {
			if (requested.error._tag === "Closed") return Result.err(requested.error);
			return none(`Lane ${JSON.stringify(this.name)} no longer has the inspected operation`);
		}
		const driven = await this.drive({ operationId }, context);
		if (!driven.ok && driven.error._tag === "Closed") return Result.err(driven.error);
		return Result.ok({ operationId, steer: requested.value.steer, followUp: requested.value.followUp });
	}

	inspectExecution(_context: Context): Promise<LaneExecutionInfo> {
		this.assertOpen();
		const operation = this.state.operation;
		return Promise.resolve({
			lane: this.name,
			tipId: this.state.tipId,
			configuredModel: this.state.configuration.model,
			current:
				operation === null
					? null
					: {
							id: operation.meta.operationId,
							kind: operation.meta.intent.kind,
							status: operation.state.control.status === "cancel_requested" ? "aborting" : "open",
							startedAt: operation.meta.startedAt,
							...capturedModel(operation.state as unknown as RunState),
						},
			lastOperationId: this.state.lastOperationId,
		});
	}

	async waitForIdle(context: Context): Promise<void> {
		for (;;) {
			this.assertOpen();
			if (this.state.operation === null && this.activeDrive === undefined) return;
			await awaitWithContext(this.changed(), context);
		}
	}

	/** Run `callback` while no operation can start on this lane. */
	async runWhenIdle(callback: (context: Context) => void | Promise<void>, context: Context): Promise<void> {
		for (;;) {
			this.assertOpen();
			if (this.state.operation === null && this.activeDrive === undefined && this.idleOwner === undefined) break;
			await awaitWithContext(this.idleOwner ?? this.changed(), context);
		}
		let release = () => {};
		const owner = new Promise<void>((resolve) => {
			release = resolve;
		});
		this.idleOwner = owner;
		this.notify();
		try {
			await callback(context);
		} finally {
			if (this.idleOwner === owner) this.idleOwner = undefined;
			release();
			this.notify();
		}
	}

	steer(message: string | AgentMessage, images: ImageContent[] | undefined, context: Context) {
		return inbox.enqueue(this, "steer", message, images, context);
	}
	followUp(message: string | AgentMessage, images: ImageContent[] | undefined, context: Context) {
		return inbox.enqueue(this, "followUp", message, images, context);
	}
	nextRun(message: string | AgentMessage, images: ImageContent[] | undefined, context: Context) {
		return inbox.enqueue(this, "nextRun", message, images, context);
	}
	cancelQueued(entryId: string, context: Context) {
		return inbox.cancelQueued(this, entryId, context);
	}
	recordUsage(usage: Usage, options: { entryId?: string; details?: JsonValue } | undefined, context: Context) {
		return inbox.recordUsage(this, usage, options, context);
	}
	async getModel(_context: Context): Promise<Model | undefined> {
		this.assertOpen();
		return this.model();
	}
	setModel(model: ModelIdentity, context: Context): Promise<void> {
		return inbox.setConfiguration(
			this,
			(c) => ({ ...c, model: { ...model } }),
			(p, v) => ({ type: "config_update", property: "model", previous: p.model, value: v.model }),
			context,
		);
	}
	async getThinkingLevel(_context: Context): Promise<ThinkingLevel> {
		this.assertOpen();
		return this.state.configuration.thinkingLevel;
	}
	setThinkingLevel(level: ThinkingLevel, context: Context): Promise<void> {
		return inbox.setConfiguration(
			this,
			(c) => ({ ...c, thinkingLevel: level }),
			(p, v) => ({
				type: "config_update",
				property: "thinkingLevel",
				previous: p.thinkingLevel,
				value: v.thinkingLevel,
			}),
			context,
		);
	}
	async getActiveTools(_context: Context): Promise<string[]> {
		this.assertOpen();
		return this.state.configuration.activeToolNames;
	}
	setActiveTools(names: string[], context: Context): Promise<void> {
		return inbox.setConfiguration(
			this,
			(c) => ({ ...c, activeToolNames: names }),
			(p, v) => ({
				type: "config_update",
				property: "activeTools",
				previous: p.activeToolNames,
				value: v.activeToolNames,
			}),
			context,
		);
	}

	/** A snapshot of the lane plus the lane's events from exactly that point on (buffered until `start`). */
	watch(context: Context): Promise<WatchHandle<LaneSnapshot>> {
		return watchLane(this, context);
	}
}
