/**
 * A folder extension with its own npm dependency. Run `npm install` in this folder once, then
 *   pi -e examples/extensions/with-deps -p "/uptime"
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
// @ts-expect-error: `ms` is installed in this folder's own node_modules, not the repo's.
import ms from "ms";

export default function (pi: ExtensionAPI) {
	pi.registerCommand("uptime", {
		description: "How long this pi process has been running",
		handler: async () => {
			console.log(`up ${ms(Math.round(process.uptime() * 1000))}`);
		},
	});
}
