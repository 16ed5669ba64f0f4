/**
 * The state one lane owns while the harness holds its session: tip, configuration, inbox and the current operation,
 * plus the serialized commit step every change goes through (commit, publish the new state, then deliver events).
 */
import type { Model, Models } from "../../../ai/index.ts";
import { awaitWithContext, type Context } from "../context.ts";
import { Closed, HarnessClosed, HarnessFault } from "../result.ts";
import type {
	CommitResult,
	InboxItem,
	LaneConfiguration,
	Operation,
	Session,
	SessionMutator,
	Write,
} from "../session/types.ts";
import { laneState as laneStateValue, setValue } from "../session/values.ts";
import type { HookRegistry } from "./hooks.ts";
import type { DriveOutcome, HarnessConfig, HarnessEvent } from "./types.ts";

export interface LiveLaneState {
	tipId: string | null;
	configuration: LaneConfiguration;
	inbox: InboxItem[];
	lastOperationId: string | null;
	operation: Operation | null;
}

/** One in-process drive of the lane's current operation. */
export interface ActiveDrive {
	operationId: string;
	controller: AbortController;
	completion: Promise<DriveOutcome>;
}

export interface LaneServices {
	session: Session;
	models: Pick<Models, "getModel" | "streamSimple">;
	hooks: HookRegistry;
	config: () => HarnessConfig;
	emit: (events: HarnessEvent[], context: Context) => Promise<void>;
	watch: (listener: (event: HarnessEvent, context: Context) => void) => () => void;
	fault: (cause: unknown, context: Context) => Error;
}

export type Planned<T> =
	| { kind: "return"; result: T }
	| {
			kind: "commit";
			writes: Write[];
			next: LiveLaneState;
			result: (commit: CommitResult) => T;
			events?: (commit: CommitResult) => HarnessEvent[];
	  };

export class LaneCore {
	state: LiveLaneState;
	activeDrive: ActiveDrive | undefined;
	closedError: Error | undefined;
	private idleWaiters: (() => void)[] = [];
	idleOwner: Promise<void> | undefined;

	constructor(
		readonly name: string,
		readonly services: LaneServices,
		state: LiveLaneState,
	) {
		this.state = state;
	}

	get session(): Session {
		return this.services.session;
	}

	laneStateWrite(
		currentOperationId: string | null,
		inbox = this.state.inbox,
		last = this.state.lastOperationId,
	): Write {
		return setValue(laneStateValue(this.name), { currentOperationId, lastOperationId: last, inbox });
	}

	model(): Model | undefined {
		const { provider, modelId } = this.state.configuration.model;
		return this.services.models.getModel(provider, modelId);
	}

	/** `Closed` once the harness closed (a result, not a throw), otherwise throws a fault. */
	closedResult(): Closed | undefined {
		if (this.closedError instanceof HarnessClosed) return new Closed({ message: this.closedError.message });
		this.assertOpen();
		return undefined;
	}

	assertOpen(): void {
		if (this.closedError !== undefined) throw this.closedError;
	}

	seal(error: Error): Promise<void> {
		this.closedError ??= error;
		this.activeDrive?.controller.abort(error);
		this.notify();
		return this.idleOwner ?? Promise.resolve();
	}

	notify(): void {
		const waiters = this.idleWaiters;
		this.idleWaiters = [];
		for (const wake of waiters) wake();
	}

	/** Resolves at the next state change (commit, drive start or end, idle claim). */
	changed(): Promise<void> {
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/**
	 * Plan against the current state on the session's mutation line; a `commit` plan commits once, publishes its
	 * next state, and delivers its events before the result returns. Storage or planning errors fault the harness.
	 */
	async command<T>(
		plan: (state: LiveLaneState, reader: SessionMutator) => Promise<Planned<T>> | Planned<T>,
		context: Context,
	): Promise<T> {
		this.assertOpen();
		while (this.idleOwner !== undefined) {
			await awaitWithContext(this.idleOwner, context);
			this.assertOpen();
		}
		let delivery: Promise<void> | undefined;
		let result: T;
		try {
			result = await this.session.mutate(async (mutator) => {
				this.assertOpen();
				const decision = await plan(this.state, mutator);
				if (decision.kind === "return") return decision.result;
				const commit = await mutator.commit(decision.writes, context);
				this.state = decision.next;
				this.notify();
				const events = decision.events?.(commit) ?? [];
				if (events.length > 0) delivery = this.services.emit(events, context);
				return decision.result(commit);
			}, context);
		} catch (error) {
			if (this.closedError !== undefined) throw this.closedError;
			if (error instanceof HarnessFault) throw error;
			throw this.services.fault(error, context);
		}
		await delivery;
		return result;
	}
}
