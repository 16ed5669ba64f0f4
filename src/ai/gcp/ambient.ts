/**
 * Whether Vertex AI is configured without a key (pi-ai's rule for `google-vertex`): a credentials file exists and
 * a location is set, and a project is known (from the environment, or else named in the credentials file).
 */
import {
	type EnvLookup,
	hasAdcFile,
	loadAdcCredentials,
	locationFromEnv,
	projectFromCredentials,
	projectFromEnv,
} from "./adc-file.ts";

export function hasVertexAmbientAuth(env: EnvLookup = process.env): boolean {
	if (!locationFromEnv(env) || !hasAdcFile(env)) return false;
	if (projectFromEnv(env)) return true;
	try {
		return projectFromCredentials(loadAdcCredentials(env)) !== undefined;
	} catch {
		return false;
	}
}
