/** The errors a session reports for invalid use or inconsistent durable state. */

/** Durable session state is inconsistent and cannot safely advance. */
export class SessionInvariantError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SessionInvariantError";
	}
}
/** A branch name is not allowed. */
export class SessionInvalidBranchError extends Error {
	readonly branch: string;
	readonly reason: string;
	constructor(branch: string, reason: string) {
		super(`Invalid branch ${JSON.stringify(branch)}: ${reason}`);
		this.name = "SessionInvalidBranchError";
		this.branch = branch;
		this.reason = reason;
	}
}
/** The branch exists already. */
export class SessionBranchExistsError extends Error {
	readonly branch: string;
	constructor(branch: string) {
		super(`Branch already exists: ${branch}`);
		this.name = "SessionBranchExistsError";
		this.branch = branch;
	}
}
/** A still-streaming assistant message cannot become an entry. */
export class SessionPendingAssistantMessageError extends Error {
	constructor() {
		super("Cannot persist a pending assistant message");
		this.name = "SessionPendingAssistantMessageError";
	}
}
/** The entry a call targets does not exist. */
export class SessionUnknownTargetError extends Error {
	readonly targetId: string;
	constructor(targetId: string) {
		super(`Unknown target: ${targetId}`);
		this.name = "SessionUnknownTargetError";
		this.targetId = targetId;
	}
}
