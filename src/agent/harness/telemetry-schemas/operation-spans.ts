/** pi-agent-core telemetry: the spans of a harness operation (run, compaction, navigation, checkpoint). */
export const OPERATION_SPANS = {
	"pi.harness.run": {
		description: "A run invocation admitted in this process",
		parents: {
			kind: "root_or_external",
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
			"pi.operation.recovery": {
				type: "boolean",
				required: true,
				description: "Whether the invocation resumes earlier durable work",
			},
			"pi.operation.kind": {
				type: "string",
				required: true,
				values: ["run"],
				description: "Operation kind (run)",
			},
		},
		endAttributes: {
			"pi.operation.outcome": {
				type: "string",
				values: ["completed", "aborted", "failed", "suspended"],
				description: "How the invocation ended",
			},
			"pi.error.code": {
				type: "string",
				cardinality: "low",
				description: "Stable error code of the operation",
			},
			"pi.error.type": {
				type: "string",
				cardinality: "low",
				description: "Error class of the operation (low cardinality)",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The run throws or ends in failure",
		},
	},
	"pi.harness.compaction": {
		description: "A manual compaction invocation admitted in this process",
		parents: {
			kind: "root_or_external",
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
			"pi.operation.recovery": {
				type: "boolean",
				required: true,
				description: "Whether the invocation resumes earlier durable work",
			},
			"pi.operation.kind": {
				type: "string",
				required: true,
				values: ["compaction"],
				description: "Operation kind (compaction)",
			},
		},
		endAttributes: {
			"pi.operation.outcome": {
				type: "string",
				values: ["completed", "declined", "aborted", "failed"],
				description: "How the invocation ended",
			},
			"pi.error.code": {
				type: "string",
				cardinality: "low",
				description: "Stable error code of the operation",
			},
			"pi.error.type": {
				type: "string",
				cardinality: "low",
				description: "Error class of the operation (low cardinality)",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The compaction throws or ends in failure",
		},
	},
	"pi.harness.navigation": {
		description: "A tree navigation invocation admitted in this process",
		parents: {
			kind: "root_or_external",
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
			"pi.operation.recovery": {
				type: "boolean",
				required: true,
				description: "Whether the invocation resumes earlier durable work",
			},
			"pi.operation.kind": {
				type: "string",
				required: true,
				values: ["navigation"],
				description: "Operation kind (navigation)",
			},
		},
		endAttributes: {
			"pi.operation.outcome": {
				type: "string",
				values: ["completed", "declined", "aborted", "failed"],
				description: "How the invocation ended",
			},
			"pi.error.code": {
				type: "string",
				cardinality: "low",
				description: "Stable error code of the operation",
			},
			"pi.error.type": {
				type: "string",
				cardinality: "low",
				description: "Error class of the operation (low cardinality)",
			},
		},
		status: {
			default: "ok",
			errorWhen: "The navigation throws or ends in failure",
		},
	},
	"pi.harness.checkpoint": {
		description: "A checkpoint written during a run",
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
			"pi.checkpoint.kind": {
				type: "string",
				required: true,
				values: ["normal", "abort_reconcile"],
				description: "What the checkpoint is for",
			},
		},
		endAttributes: {},
		status: {
			default: "ok",
			errorWhen: "Writing the checkpoint throws",
		},
	},
} as const;
