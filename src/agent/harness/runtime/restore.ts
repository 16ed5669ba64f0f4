/**
 * Reading lanes back from a session: a lane is its branch tip, configuration and lane state; a lane with a current
 * operation also brings that operation's metadata and durable step.
 */
import type { Context } from "../context.ts";
import { SessionInvariantError } from "../session/errors.ts";
import type { LaneConfiguration, LaneState, Operation, Session, SessionReader, StoredValue } from "../session/types.ts";
import {
	branchTip,
	branchTipInventoryPrefix,
	laneConfig,
	laneState,
	operationMeta,
	operationState,
} from "../session/values.ts";
import type { LiveLaneState } from "./lane-core.ts";

export type StoredLane =
	| { kind: "absent" }
	| { kind: "branch"; tip: StoredValue<string | null> }
	| {
			kind: "lane";
			tip: StoredValue<string | null>;
			configuration: StoredValue<LaneConfiguration>;
			laneState: StoredValue<LaneState>;
	  };

function classify(
	lane: string,
	tip: StoredValue<string | null> | undefined,
	configuration: StoredValue<LaneConfiguration> | undefined,
	state: StoredValue<LaneState> | undefined,
): StoredLane {
	if (tip === undefined && configuration === undefined && state === undefined) return { kind: "absent" };
	if (tip !== undefined && configuration === undefined && state === undefined) return { kind: "branch", tip };
	const name = JSON.stringify(lane);
	if (tip === undefined) throw new SessionInvariantError(`Lane ${name} is missing branch.tip`);
	if (configuration === undefined) throw new SessionInvariantError(`Lane ${name} is missing lane.config`);
	if (state === undefined) throw new SessionInvariantError(`Lane ${name} is missing lane.state`);
	return { kind: "lane", tip, configuration, laneState: state };
}

export async function readLaneStorage(reader: SessionReader, lane: string, context: Context): Promise<StoredLane> {
	const [tip, configuration, state] = await Promise.all([
		reader.getValue(branchTip(lane), context),
		reader.getValue(laneConfig(lane), context),
		reader.getValue(laneState(lane), context),
	]);
	return classify(lane, tip, configuration, state);
}

export async function restoreLaneState(
	reader: SessionReader,
	lane: string,
	stored: Extract<StoredLane, { kind: "lane" }>,
	context: Context,
): Promise<LiveLaneState> {
	const operationId = stored.laneState.value.currentOperationId;
	let operation: Operation | null = null;
	if (operationId !== null) {
		const [meta, state] = await Promise.all([
			reader.getValue(operationMeta(operationId), context),
			reader.getValue(operationState(operationId), context),
		]);
		if (meta === undefined) throw new SessionInvariantError(`Operation ${operationId} is missing op.meta`);
		if (state === undefined) throw new SessionInvariantError(`Operation ${operationId} is missing op.state`);
		if (meta.value.lane !== lane) {
			throw new SessionInvariantError(
				`Operation ${operationId} belongs to lane ${JSON.stringify(meta.value.lane)}, not ${JSON.stringify(lane)}`,
			);
		}
		operation = { meta: meta.value, state: state.value };
	}
	return {
		tipId: stored.tip.value,
		configuration: stored.configuration.value,
		inbox: stored.laneState.value.inbox,
		lastOperationId: stored.laneState.value.lastOperationId,
		operation,
	};
}

/** Every complete lane of the session, read in one pass on the mutation line. */
export function restoreSession(session: Session, context: Context): Promise<Map<string, LiveLaneState>> {
	return session.mutate(async (reader) => {
		const [tips, configurations, states] = await Promise.all([
			reader.scanValues(branchTipInventoryPrefix(), context),
			reader.scanValues(laneConfig(""), context),
			reader.scanValues(laneState(""), context),
		]);
		const byKey = <T>(values: StoredValue<T>[]) => new Map(values.map((value) => [value.address.key, value]));
		const tipBy = byKey(tips);
		const configBy = byKey(configurations);
		const stateBy = byKey(states);
		const restored = new Map<string, LiveLaneState>();
		for (const lane of new Set([...tipBy.keys(), ...configBy.keys(), ...stateBy.keys()])) {
			const stored = classify(lane, tipBy.get(lane), configBy.get(lane), stateBy.get(lane));
			if (stored.kind === "lane") restored.set(lane, await restoreLaneState(reader, lane, stored, context));
		}
		return restored;
	}, context);
}
