/** pi-agent-core telemetry: the spans of the work inside an operation (turns, steps, tools, hooks, sleeps, handlers, session writes). */
export const WORK_SPANS = {
	"pi.harness.turn": {
		description: "An assistant response together with its tool calls",
		parents: {
			kind: "spans",
			spans: ["pi.harness.run"],
		},
		startAttributes: {
			"pi.lane.name": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Name of the lane",
			},
			"pi.operation.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.turn.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Turn id, local to the invocation",
			},
		},
		endAttributes: {},
		status: {
			default: "ok",
			errorWhen: "The turn throws",
		},
	},
	"pi.harness.step": {
		description: "One attempt of a retryable durable step",
		parents: {
			kind: "spans",
			spans: ["pi.harness.turn", "pi.harness.checkpoint", "pi.harness.compaction", "pi.harness.navigation"],
		},
		startAttributes: {
			"pi.lane.name": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Name of the lane",
			},
			"pi.operation.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.step.kind": {
				type: "string",
				required: true,
				values: ["assistant", "compaction", "branch_summary"],
				description: "Kind of retryable step",
			},
			"pi.step.attempt": {
				type: "number",
				required: true,
				description: "Attempt number of the durable step, from 1",
			},
			"pi.compaction.reason": {
				type: "string",
				required: false,
				values: ["manual", "threshold", "overflow"],
				description: "What triggered the compaction",
			},
		},
		endAttributes: {
			"pi.step.outcome": {
				type: "string",
				values: ["succeeded", "retry", "failed", "aborted", "deferred", "overflow"],
				description: "How the attempt ended",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The attempt throws, fails, or is retried",
		},
	},
	"pi.harness.tool": {
		description: "One raw execution of a tool (phase 2)",
		parents: {
			kind: "spans",
			spans: ["pi.harness.turn", "pi.harness.run"],
		},
		startAttributes: {
			"pi.lane.name": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Name of the lane",
			},
			"pi.operation.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.turn.id": {
				type: "string",
				required: false,
				cardinality: "high",
				description: "Turn id, local to the invocation",
			},
			"pi.tool.name": {
				type: "string",
				required: true,
				description: "Name of the tool",
			},
			"pi.tool.call_id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the tool call",
			},
			"pi.tool.replay": {
				type: "string",
				required: true,
				values: ["never", "safe"],
				description: "Replay policy the tool declares",
			},
			"pi.tool.recovery": {
				type: "boolean",
				required: true,
				description: "Whether the execution recovers an interrupted call",
			},
		},
		endAttributes: {
			"pi.tool.is_error": {
				type: "boolean",
				description: "Whether the raw execution returned an error",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The raw execution yields an error result",
		},
	},
	"pi.harness.hook": {
		description: "One call of a registered hook handler",
		parents: {
			kind: "any",
		},
		startAttributes: {
			"pi.lane.name": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Name of the lane",
			},
			"pi.operation.id": {
				type: "string",
				required: false,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.hook.name": {
				type: "string",
				required: true,
				values: [
					"before_run",
					"before_drive",
					"before_run_end",
					"transform_context",
					"before_request",
					"before_payload",
					"after_response",
					"before_tool",
					"after_tool",
					"before_compaction",
					"before_navigation",
				],
				description: "Name of the hook",
			},
			"pi.hook.registration_id": {
				type: "string",
				required: false,
				description: "Registration id of the handler, when known",
			},
		},
		endAttributes: {
			"pi.hook.outcome": {
				type: "string",
				values: ["completed", "skipped", "blocked", "failed"],
				description: "How the handler ended",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The hook handler throws",
		},
	},
	"pi.harness.sleep": {
		description: "One wait before a retry",
		parents: {
			kind: "spans",
			spans: [
				"pi.harness.run",
				"pi.harness.compaction",
				"pi.harness.navigation",
				"pi.harness.turn",
				"pi.harness.checkpoint",
			],
		},
		startAttributes: {
			"pi.operation.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.sleep.delay_ms": {
				type: "number",
				required: true,
				description: "Requested wait in milliseconds",
			},
		},
		endAttributes: {
			"pi.sleep.outcome": {
				type: "string",
				values: ["elapsed", "aborted"],
				description: "How the wait ended",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The wait throws",
		},
	},
	"pi.harness.event_handler": {
		description: "One call of a passive event listener",
		parents: {
			kind: "any",
		},
		startAttributes: {
			"pi.event.type": {
				type: "string",
				required: true,
				cardinality: "low",
				values: [
					"run_start",
					"run_resume",
					"run_suspend",
					"operation_abort",
					"run_end",
					"fault",
					"handler_error",
					"turn_start",
					"turn_end",
					"retry_scheduled",
					"retry_start",
					"retry_end",
					"message_start",
					"message_update",
					"message_end",
					"tool_start",
					"tool_update",
					"tool_end",
					"entry_added",
					"queue_update",
					"value_update",
					"config_update",
					"compaction_start",
					"compaction_end",
					"navigation_start",
					"navigation_end",
					"lane_created",
					"usage",
				],
				description: "Type of the harness event delivered",
			},
			"pi.lane.name": {
				type: "string",
				required: false,
				cardinality: "high",
				description: "Name of the lane",
			},
		},
		endAttributes: {},
		status: {
			default: "ok",
			errorWhen: "The event listener throws",
		},
	},
	"pi.session.write": {
		description: "One committed session transaction",
		parents: {
			kind: "any",
		},
		startAttributes: {
			"pi.session.id": {
				type: "string",
				required: true,
				cardinality: "high",
				description: "Id of the session",
			},
			"pi.lane.name": {
				type: "string",
				required: false,
				cardinality: "high",
				description: "Name of the lane",
			},
			"pi.operation.id": {
				type: "string",
				required: false,
				cardinality: "high",
				description: "Id of the durable operation",
			},
			"pi.session.item_count": {
				type: "number",
				required: true,
				description: "How many writes the transaction holds",
			},
			"pi.session.item_kinds": {
				type: "string[]",
				required: true,
				elementValues: ["entry", "usage", "value", "list"],
				description: "The distinct kinds of write in the transaction",
			},
		},
		endAttributes: {
			"pi.session.first_seq": {
				type: "number",
				description: "First sequence number the transaction committed",
			},
			"pi.session.last_seq": {
				type: "number",
				description: "Last sequence number the transaction committed",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The storage refuses the transaction",
		},
	},
} as const;
