/**
 * A stand-in RPC server for client tests: speaks the stdin/stdout protocol with canned answers.
 * Run: bun test/support/fake-rpc-server.ts --mode rpc [args…]
 *
 *   get_state             → a fixed state; `sessionName` is the server's own argv (after the script path)
 *   get_session_stats     → answered 50 ms late (responses out of order)
 *   get_messages          → never answered (timeouts)
 *   get_last_assistant_text → `data: {}` (what pi sends when there is no assistant message)
 *   set_model             → failure "Model not found: <provider>/<modelId>"
 *   prompt "exit"         → exits with code 3 without answering
 *   prompt "busy"         → failure (pi's text for a prompt during streaming)
 *   prompt "ui"           → accepted; asks a `select` dialog, then emits `message_end` with the answer and settles
 *   prompt <other>        → accepted; agent_start, a text delta (with U+2028 and a multi-byte char), agent_end,
 *                           agent_settled
 *   anything else valid   → success without data; invalid lines get pi's failure response
 * Writes "fake-rpc-server ready" to stderr at start; exits 0 at end of stdin.
 */
import { attachJsonlLineReader, parseCommandLine, serializeJsonLine } from "../../src/modes/rpc/index.ts";

const send = (record: unknown) => process.stdout.write(serializeJsonLine(record));
const respond = (id: string | undefined, command: string, data?: unknown) =>
	send(
		data === undefined
			? { id, type: "response", command, success: true }
			: { id, type: "response", command, success: true, data },
	);

const dialogs = new Map<string, (answer: Record<string, unknown>) => void>();

process.stderr.write("fake-rpc-server ready\n");

function run(text: string): void {
	send({ type: "agent_start" });
	send({
		type: "message_update",
		usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
		assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: text },
	});
	send({ type: "agent_end", messages: [], willRetry: false });
	send({ type: "agent_settled" });
}

function handle(line: string): void {
	const parsed = parseCommandLine(line);
	if (!parsed.ok) {
		send(parsed.response);
		return;
	}
	const command = parsed.command;
	if (command.type === "extension_ui_response") {
		const answer = dialogs.get(command.id);
		dialogs.delete(command.id);
		answer?.(command as unknown as Record<string, unknown>);
		return;
	}
	const id = command.id;
	switch (command.type) {
		case "get_state":
			respond(id, "get_state", {
				thinkingLevel: "off",
				isStreaming: false,
				isCompacting: false,
				steeringMode: "one-at-a-time",
				followUpMode: "one-at-a-time",
				sessionId: "fake-session",
				sessionName: process.argv.slice(2).join(" "),
				autoCompactionEnabled: true,
				messageCount: 0,
				pendingMessageCount: 0,
			});
			return;
		case "get_session_stats":
			setTimeout(() => respond(id, "get_session_stats", { sessionId: "late", totalMessages: 0 }), 50);
			return;
		case "get_messages":
			return;
		case "get_last_assistant_text":
			respond(id, "get_last_assistant_text", {});
			return;
		case "set_model":
			send({
				id,
				type: "response",
				command: "set_model",
				success: false,
				error: `Model not found: ${command.provider}/${command.modelId}`,
			});
			return;
		case "prompt":
			if (command.message === "exit") process.exit(3);
			if (command.message === "busy") {
				send({
					id,
					type: "response",
					command: "prompt",
					success: false,
					error: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
				});
				return;
			}
			respond(id, "prompt");
			if (command.message === "ui") {
				send({ type: "agent_start" });
				dialogs.set("ui-1", (answer) => {
					send({ type: "message_end", message: { role: "custom", answer } });
					send({ type: "agent_settled" });
				});
				send({
					type: "extension_ui_request",
					id: "ui-1",
					method: "select",
					title: "Allow?",
					options: ["Allow", "Block"],
				});
				return;
			}
			run(`echo: ${command.message} \u2028 é`);
			return;
		default:
			respond(id, command.type);
	}
}

attachJsonlLineReader(process.stdin, handle);
process.stdin.on("end", () => process.exit(0));
