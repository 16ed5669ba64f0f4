/**
 * pi-agent-core's `AgentHarness`: attached to one open session, it owns that session's lanes, the harness-wide
 * configuration (tools, resources, stream options, retry, compaction settings, queue modes), hooks and events.
 * Storage or invariant failures fault the whole harness; `close` ends it and closes the session.
 */
import { DEFAULT_MAX_AGENT_RETRY_DELAY_MS, type RetryPolicy } from "../../../ai/index.ts";
import type { Context } from "../context.ts";
import { convertToLlm } from "../messages.ts";
import { HarnessClosed, HarnessFault, InvalidLane, SliceNotImplemented, UnknownTarget } from "../result.ts";
import { SessionInvariantError } from "../session/errors.ts";
import type { LaneConfiguration, Session, Write } from "../session/types.ts";
import { branchTip, deleteValue, entryLabel, laneConfig, laneState, sessionName, setValue } from "../session/values.ts";
import { HarnessEventBus } from "./events.ts";
import { HookRegistry } from "./hooks.ts";
import { Lane } from "./lane.ts";
import type { LiveLaneState } from "./lane-core.ts";
import { readLaneStorage, restoreLaneState, restoreSession } from "./restore.ts";
import type {
	AgentHarnessOptions,
	CompactionSettings,
	HarnessConfig,
	HarnessEvent,
	HarnessTool,
	LaneInfo,
	OpenOperation,
} from "./types.ts";

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	enabled: true,
	maxRetries: 3,
	baseDelayMs: 1_000,
	maxAgentDelayMs: DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
};
const DEFAULT_COMPACTION: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

function validateToolNames(tools: HarnessTool<never>[] | HarnessTool<unknown>[]): void {
	const names = new Set<string>();
	for (const tool of tools) {
		if (names.has(tool.name)) throw new TypeError(`Duplicate tool name: ${JSON.stringify(tool.name)}`);
		names.add(tool.name);
	}
}
const safe = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 0);
function validateRetryPolicy(policy: RetryPolicy): void {
	if (
		!safe(policy.maxRetries) ||
		policy.maxRetries === Number.MAX_SAFE_INTEGER ||
		!safe(policy.baseDelayMs) ||
		!safe(policy.maxAgentDelayMs)
	) {
		throw new RangeError("Retry policy values must be finite non-negative safe integers");
	}
}
function validateCompactionSettings(settings: CompactionSettings): void {
	if (!safe(settings.reserveTokens) || !safe(settings.keepRecentTokens)) {
		throw new RangeError("Compaction token counts must be finite non-negative safe integers");
	}
}

type ConfigKey = keyof HarnessConfig;

export class Harness<TContext = unknown> {
	readonly hooks: HookRegistry;
	readonly events: HarnessEventBus;
	private readonly session: Session;
	private readonly lanesByName = new Map<string, Lane>();
	private config: HarnessConfig;
	private closePromise: Promise<void> | undefined;
	private closedError: HarnessClosed | undefined;
	private faultError: HarnessFault | undefined;

	constructor(
		private readonly options: AgentHarnessOptions<TContext>,
		private readonly seed: LaneConfiguration,
		restored: Map<string, LiveLaneState>,
	) {
		this.session = options.session;
		this.events = new HarnessEventBus();
		this.hooks = new HookRegistry((error, hook, lane, context) =>
			this.events.emit(
				{
					type: "handler_error",
					kind: "hook",
					hook,
					error: error.message,
					...(error.stack === undefined ? {} : { stack: error.stack }),
					lane,
				},
				context,
			),
		);
		this.config = {
			tools: (options.tools ?? []) as HarnessTool[],
			resources: options.resources ?? {},
			streamOptions: options.streamOptions ?? {},
			retryPolicy: options.retry ?? DEFAULT_RETRY_POLICY,
			compaction: options.compaction ?? DEFAULT_COMPACTION,
			steeringMode: options.steeringMode ?? "all",
			followUpMode: options.followUpMode ?? "all",
			toolExecution: options.toolExecution ?? "parallel",
			toolContext: options.toolContext as HarnessConfig["toolContext"],
			systemPrompt: options.systemPrompt as HarnessConfig["systemPrompt"],
			toProviderMessages: options.toProviderMessages ?? ((messages) => convertToLlm(messages)),
			entryProjectors: options.entryProjectors ?? {},
		};
		for (const [name, state] of restored) this.lanesByName.set(name, this.buildLane(name, state));
	}

	/** The lane `name`, created (at `createAt`, default the empty branch) when the session has none yet. */
	async lane(
		name: string,
		optionsOrContext: { createAt?: string | null } | Context,
		maybeContext?: Context,
	): Promise<Lane> {
		this.assertOpen();
		if (name.length === 0 || name.includes("\u0000")) {
			const reason = name.length === 0 ? "lane name must not be empty" : "lane name must not contain \\u0000";
			throw new InvalidLane({ lane: name, reason, message: `Invalid lane ${JSON.stringify(name)}: ${reason}` });
		}
		const options = (maybeContext === undefined ? {} : optionsOrContext) as { createAt?: string | null };
		const context = maybeContext ?? (optionsOrContext as Context);
		let lane: Lane | undefined;
		let delivery: Promise<void> | undefined;
		try {
			await this.session.mutate(async (mutator) => {
				this.assertOpen();
				lane = this.lanesByName.get(name);
				if (lane !== undefined) return;
				const stored = await readLaneStorage(mutator, name, context);
				if (stored.kind === "lane") {
					lane = this.buildLane(name, await restoreLaneState(mutator, name, stored, context));
					this.lanesByName.set(name, lane);
					return;
				}
				const tipId = stored.kind === "branch" ? stored.tip.value : (options.createAt ?? null);
				if (stored.kind === "absent" && tipId !== null && !(await mutator.getEntries([tipId], context)).has(tipId)) {
					throw new UnknownTarget({ targetId: tipId, message: `Unknown target: ${tipId}` });
				}
				const configuration = {
					...this.seed,
					model: { ...this.seed.model },
					activeToolNames: [...this.seed.activeToolNames],
				};
				await mutator.commit(
					[
						...(stored.kind === "absent" ? [setValue(branchTip(name), tipId)] : []),
						setValue(laneConfig(name), configuration),
						setValue(laneState(name), { currentOperationId: null, lastOperationId: null, inbox: [] }),
					],
					context,
				);
				lane = this.buildLane(name, { tipId, configuration, inbox: [], lastOperationId: null, operation: null });
				this.lanesByName.set(name, lane);
				delivery = this.events.emitBatch([{ type: "lane_created", lane: name, at: tipId }], context);
			}, context);
		} catch (error) {
			if (this.closedError !== undefined) throw this.closedError;
			if (error instanceof InvalidLane || error instanceof UnknownTarget) throw error;
			throw this.fault(error, context);
		}
		await delivery;
		if (lane === undefined)
			throw this.fault(new SessionInvariantError(`Lane ${JSON.stringify(name)} was not published`), context);
		return lane;
	}

	async lanes(context: Context): Promise<LaneInfo[]> {
		this.assertOpen();
		const executions = await Promise.all([...this.lanesByName.values()].map((lane) => lane.inspectExecution(context)));
		return executions.map((execution) => ({
			name: execution.lane,
			tipId: execution.tipId,
			operation: execution.current,
		}));
	}

	getName(context: Context): Promise<string | undefined> {
		this.assertOpen();
		return this.session.getName(context);
	}
	setName(name: string | undefined, context: Context): Promise<void> {
		return this.commitValue(
			name === undefined ? deleteValue(sessionName) : setValue(sessionName, name),
			{ type: "value_update", value: "session_name", name },
			context,
		);
	}
	getLabel(targetId: string, context: Context): Promise<string | undefined> {
		this.assertOpen();
		return this.session.getLabel(targetId, context);
	}
	setLabel(targetId: string, label: string | undefined, context: Context): Promise<void> {
		const address = entryLabel(targetId);
		return this.commitValue(
			label === undefined ? deleteValue(address) : setValue(address, label),
			{ type: "value_update", value: "entry_label", targetId, label },
			context,
		);
	}

	getTools(context: Context) {
		return this.getConfig("tools", context);
	}
	setTools(tools: HarnessTool[], context: Context) {
		validateToolNames(tools);
		return this.setConfig("tools", tools, () => ({ type: "config_update", property: "tools" }), context);
	}
	getResources(context: Context) {
		return this.getConfig("resources", context);
	}
	setResources(resources: HarnessConfig["resources"], context: Context) {
		return this.setConfig("resources", resources, () => ({ type: "config_update", property: "resources" }), context);
	}
	getStreamOptions(context: Context) {
		return this.getConfig("streamOptions", context);
	}
	setStreamOptions(value: HarnessConfig["streamOptions"], context: Context) {
		return this.setConfig(
			"streamOptions",
			value,
			(previous) => ({ type: "config_update", property: "streamOptions", previous, value }),
			context,
		);
	}
	getRetryPolicy(context: Context) {
		return this.getConfig("retryPolicy", context);
	}
	setRetryPolicy(value: RetryPolicy, context: Context) {
		validateRetryPolicy(value);
		return this.setConfig(
			"retryPolicy",
			value,
			(previous) => ({ type: "config_update", property: "retryPolicy", previous, value }),
			context,
		);
	}
	getCompactionSettings(context: Context) {
		return this.getConfig("compaction", context);
	}
	setCompactionSettings(value: CompactionSettings, context: Context) {
		validateCompactionSettings(value);
		return this.setConfig(
			"compaction",
			value,
			(previous) => ({ type: "config_update", property: "compactionSettings", previous, value }),
			context,
		);
	}
	getSteeringMode(context: Context) {
		return this.getConfig("steeringMode", context);
	}
	setSteeringMode(value: HarnessConfig["steeringMode"], context: Context) {
		return this.setConfig(
			"steeringMode",
			value,
			(previous) => ({ type: "config_update", property: "steeringMode", previous, value }),
			context,
		);
	}
	getFollowUpMode(context: Context) {
		return this.getConfig("followUpMode", context);
	}
	setFollowUpMode(value: HarnessConfig["followUpMode"], context: Context) {
		return this.setConfig(
			"followUpMode",
			value,
			(previous) => ({ type: "config_update", property: "followUpMode", previous, value }),
			context,
		);
	}

	/** Not provided by pi 0.87.1 either: its harness throws this same error. */
	async watchSession(_context: Context): Promise<never> {
		throw new SliceNotImplemented("watchSession");
	}

	/** Close the harness: every lane refuses new work, running drives stop, then the session closes. */
	close(context: Context): Promise<void> {
		if (this.closePromise !== undefined) return this.closePromise;
		const error = new HarnessClosed();
		this.closedError = error;
		const idle = [...this.lanesByName.values()].map((lane) => lane.seal(error));
		this.hooks.close(error);
		this.events.close(error);
		this.closePromise = Promise.all([this.session.close(context), ...idle]).then(() => undefined);
		return this.closePromise;
	}

	private fault(cause: unknown, context: Context): Error {
		if (this.faultError !== undefined) return this.faultError;
		if (this.closedError !== undefined) return this.closedError;
		const fault = new HarnessFault(
			"AgentHarness storage or invariant fault",
			cause instanceof Error ? cause : new Error(String(cause)),
		);
		this.faultError = fault;
		for (const lane of this.lanesByName.values()) void lane.seal(fault);
		this.hooks.close(fault);
		void this.events.emit({ type: "fault", code: "harness_fault", message: fault.message }, context);
		this.events.close(fault);
		return fault;
	}

	private buildLane(name: string, state: LiveLaneState): Lane {
		return new Lane(
			name,
			{
				session: this.session,
				models: this.options.models,
				hooks: this.hooks,
				config: () => this.config,
				emit: (events, context) => this.events.emitBatch(events, context),
				watch: (listener) => this.events.watch(listener),
				fault: (cause, context) => this.fault(cause, context),
			},
			state,
		);
	}

	private async commitValue(write: Write, event: HarnessEvent, context: Context) {
		this.assertOpen();
		let delivery: Promise<void> | undefined;
		try {
			await this.session.mutate(async (mutator) => {
				this.assertOpen();
				await mutator.commit([write], context);
				delivery = this.events.emitBatch([event], context);
			}, context);
		} catch (error) {
			if (this.closedError !== undefined) throw this.closedError;
			throw this.fault(error, context);
		}
		await delivery;
	}

	private async getConfig<K extends ConfigKey>(key: K, _context: Context): Promise<HarnessConfig[K]> {
		this.assertOpen();
		return this.config[key];
	}
	private async setConfig<K extends ConfigKey>(
		key: K,
		value: HarnessConfig[K],
		event: (previous: never) => HarnessEvent,
		context: Context,
	) {
		this.assertOpen();
		const previous = this.config[key];
		this.config = { ...this.config, [key]: value };
		await this.events.emit(event(previous as never), context);
	}
	private assertOpen(): void {
		if (this.faultError !== undefined) throw this.faultError;
		if (this.closedError !== undefined) throw this.closedError;
	}
}

/** Attach a harness to an open session without starting any model, tool, hook or timer work. */
export async function createAgentHarness<TContext = unknown>(
	options: AgentHarnessOptions<TContext>,
	context: Context,
): Promise<{ harness: Harness<TContext>; open: OpenOperation[] }> {
	const tools = options.tools ?? [];
	validateToolNames(tools as HarnessTool[]);
	validateRetryPolicy(options.retry ?? DEFAULT_RETRY_POLICY);
	validateCompactionSettings(options.compaction ?? DEFAULT_COMPACTION);
	const seed: LaneConfiguration = {
		model: { provider: options.model.provider, modelId: options.model.id },
		thinkingLevel: options.thinkingLevel ?? "off",
		activeToolNames: [...(options.activeToolNames ?? tools.map((tool) => tool.name))],
	};
	try {
		const restored = await restoreSession(options.session, context);
		const open: OpenOperation[] = [...restored].flatMap(([lane, state]) => {
			const operation = state.operation;
			if (operation === null) return [];
			return [
				{
					lane,
					operationId: operation.meta.operationId,
					kind: operation.meta.intent.kind,
					startedAt: operation.meta.startedAt,
					...(operation.state.control.status === "cancel_requested" ? { aborting: true as const } : {}),
				},
			];
		});
		return { harness: new Harness(options, seed, restored), open };
	} catch (error) {
		throw new HarnessFault("AgentHarness storage or invariant fault", error);
	}
}

/** Runtime constructor for attaching the durable harness to one open session. */
export const AgentHarness = { create: createAgentHarness };
