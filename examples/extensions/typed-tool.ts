/**
 * A tool with TypeBox parameters, imported from the host (no node_modules needed next to this file).
 *   pi -e examples/extensions/typed-tool.ts
 */
import { StringEnum } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "Repeat text in upper or lower case",
		parameters: Type.Object({
			text: Type.String({ description: "What to repeat" }),
			mode: StringEnum(["upper", "lower"] as const),
		}),
		async execute(_toolCallId: string, params: { text: string; mode: "upper" | "lower" }) {
			const text = params.mode === "upper" ? params.text.toUpperCase() : params.text.toLowerCase();
			return { content: [{ type: "text", text }], details: {} };
		},
	});
}
