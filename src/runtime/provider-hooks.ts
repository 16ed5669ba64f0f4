/**
 * Extension events around each provider request, installed on an agent only when some extension listens:
 * - `before_provider_headers`: handlers edit the request headers in place (`null` removes one);
 * - `after_provider_response`: status and headers of the response, before its body is read.
 */
import type { Agent } from "../agent/index.ts";
import type { ExtensionRunner } from "../extensions/index.ts";

export function installProviderHooks(agent: Agent, runner: ExtensionRunner, context: () => unknown): void {
	const wantHeaders = runner.hasHandlers("before_provider_headers");
	const wantResponse = runner.hasHandlers("after_provider_response");
	if (!wantHeaders && !wantResponse) return;
	agent.streamOptions = {
		...agent.streamOptions,
		...(wantHeaders
			? {
					onHeaders: async (headers: Record<string, string | null>) => {
						await runner.emit("before_provider_headers", { headers }, context() as never);
					},
				}
			: {}),
		...(wantResponse
			? {
					onResponse: async (response: { status: number; headers: Record<string, string> }) => {
						await runner.emit(
							"after_provider_response",
							{ status: response.status, headers: response.headers },
							context() as never,
						);
					},
				}
			: {}),
	};
}
