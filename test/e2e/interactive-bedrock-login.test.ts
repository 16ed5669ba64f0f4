/**
 * `/login amazon-bedrock` in our interactive mode (compiled binary, pseudo-terminal), with pi 0.87.1's choices:
 * an AWS profile is stored as `{"type":"api_key","env":{"AWS_PROFILE":…}}`, a bearer token (typed masked) as the
 * key, and the existing AWS credential chain as `{"type":"api_key"}`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ourAppStarter, type PtyApp } from "../helpers/pty-app.ts";

const start = ourAppStarter();
const stored = (app: PtyApp) => JSON.parse(readFileSync(join(app.home, ".pi", "agent", "auth.json"), "utf8"));

async function chooseMethod(app: PtyApp, downs: number): Promise<void> {
	app.type("/login amazon-bedrock");
	await app.press("enter");
	await app.waitFor("Select Amazon Bedrock authentication method:");
	if (downs > 0) await app.press(...Array<string>(downs).fill("down"));
	await app.press("enter");
}

describe("/login amazon-bedrock", () => {
	test("an AWS profile is stored as env.AWS_PROFILE", async () => {
		const app = await start({});
		await chooseMethod(app, 1);
		await app.waitFor("Enter AWS profile name");
		app.type("work");
		await app.press("enter");
		await app.waitFor("Saved API key for Amazon Bedrock");
		expect(stored(app)).toEqual({ "amazon-bedrock": { type: "api_key", env: { AWS_PROFILE: "work" } } });
	}, 60_000);

	test("a bearer token is typed masked and stored as the key", async () => {
		const app = await start({});
		await chooseMethod(app, 0);
		await app.waitFor("Enter Amazon Bedrock bearer token");
		app.type("bedrock-secret-77");
		const typed = await app.waitFor("•••••••••••••••••");
		expect(typed.join("\n")).not.toContain("bedrock-secret");
		await app.press("enter");
		const saved = await app.waitFor("Saved API key for Amazon Bedrock");
		expect(saved.join("\n")).not.toContain("bedrock-secret");
		expect(stored(app)).toEqual({ "amazon-bedrock": { type: "api_key", key: "bedrock-secret-77" } });
	}, 60_000);

	test("the existing AWS credential chain is stored without a key", async () => {
		const app = await start({});
		await chooseMethod(app, 2);
		await app.waitFor("Configure AWS credentials, then press Enter to continue");
		await app.press("enter");
		await app.waitFor("Saved API key for Amazon Bedrock");
		expect(stored(app)).toEqual({ "amazon-bedrock": { type: "api_key" } });
	}, 60_000);
});
