/**
 * The smallest useful extension: a `/hello` command and a `--greeting` flag.
 *   pi -e examples/extensions/hello.ts -p "/hello Ada" --greeting Hi
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerFlag("greeting", { type: "string", description: "Word to greet with", default: "Hello" });
	pi.registerCommand("hello", {
		description: "Print a greeting",
		handler: async (name) => {
			console.log(`${pi.getFlag("greeting")}, ${name || "world"}!`);
		},
	});
}
