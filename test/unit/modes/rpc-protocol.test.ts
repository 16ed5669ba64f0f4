import { describe, expect, test } from "bun:test";
import { Check } from "@sinclair/typebox/value";
import {
	errorResponse,
	parseCommandLine,
	RPC_COMMAND_TYPES,
	type RpcCommand,
	rpcCommandSchemas,
	serializeJsonLine,
	successResponse,
	v8JsonParseErrorMessage,
} from "../../../src/modes/rpc/index.ts";

function reject(line: string) {
	const result = parseCommandLine(line);
	if (result.ok) throw new Error(`expected ${line} to be rejected`);
	return result;
}

function accept(line: string) {
	const result = parseCommandLine(line);
	if (!result.ok) throw new Error(`expected ${line} to be accepted: ${result.error}`);
	return result.command;
}

describe("parseCommandLine: valid commands", () => {
	test("a command without fields, with and without id", () => {
		expect(accept('{"type":"get_state"}')).toEqual({ type: "get_state" });
		expect(accept('{"id":"req-1","type":"get_state"}')).toEqual({ id: "req-1", type: "get_state" });
	});

	test("commands with required and optional fields", () => {
		const image = { type: "image", data: "aGk=", mimeType: "image/png" };
		expect(
			accept(JSON.stringify({ type: "prompt", message: "hi", images: [image], streamingBehavior: "steer" })),
		).toEqual({ type: "prompt", message: "hi", images: [image], streamingBehavior: "steer" } as RpcCommand);
		expect(accept('{"type":"set_model","provider":"anthropic","modelId":"claude"}')).toMatchObject({
			provider: "anthropic",
			modelId: "claude",
		});
		expect(accept('{"type":"set_thinking_level","level":"max"}')).toMatchObject({ level: "max" });
		expect(accept('{"type":"set_auto_retry","enabled":false}')).toMatchObject({ enabled: false });
		expect(accept('{"type":"bash","command":"ls","excludeFromContext":true}')).toMatchObject({ command: "ls" });
		expect(accept('{"type":"get_entries","since":"abc"}')).toMatchObject({ since: "abc" });
	});

	test("every pi 0.87.1 command type is known (33)", () => {
		expect(RPC_COMMAND_TYPES.length).toBe(33);
		const minimal: Record<string, Record<string, unknown>> = {
			prompt: { message: "m" },
			steer: { message: "m" },
			follow_up: { message: "m" },
			set_model: { provider: "p", modelId: "m" },
			set_thinking_level: { level: "low" },
			set_steering_mode: { mode: "all" },
			set_follow_up_mode: { mode: "one-at-a-time" },
			set_auto_compaction: { enabled: true },
			set_auto_retry: { enabled: true },
			bash: { command: "true" },
			switch_session: { sessionPath: "/x.jsonl" },
			fork: { entryId: "e1" },
			set_session_name: { name: "n" },
		};
		for (const type of RPC_COMMAND_TYPES) {
			expect(accept(JSON.stringify({ id: type, type, ...minimal[type] })).type).toBe(type);
		}
	});

	test("extra fields pass through; null optional fields are dropped", () => {
		expect(accept('{"type":"get_state","extra":1}')).toEqual({ type: "get_state", extra: 1 } as unknown as RpcCommand);
		expect(accept('{"type":"prompt","message":"hi","images":null,"streamingBehavior":null}')).toEqual({
			type: "prompt",
			message: "hi",
		});
	});

	test("a non-string id is accepted and kept (pi echoes whatever id it got)", () => {
		expect(accept('{"id":7,"type":"get_state"}')).toEqual({ id: 7, type: "get_state" } as unknown as RpcCommand);
		expect(reject('{"id":7,"type":"nope"}').response).toMatchObject({ id: 7, command: "nope" });
	});

	test("extension_ui_response is returned as such (not a command)", () => {
		expect(accept('{"type":"extension_ui_response","id":"u1","value":"Allow"}')).toEqual({
			type: "extension_ui_response",
			id: "u1",
			value: "Allow",
		});
	});
});

describe("parseCommandLine: bad JSON", () => {
	test("the parse response has no id and Node's JSON.parse wording", () => {
		const result = reject("not json");
		expect(result.error).toBe(`Failed to parse command: Unexpected token 'o', "not json" is not valid JSON`);
		expect(result.command).toBe("parse");
		expect(result.id).toBeUndefined();
		expect(serializeJsonLine(result.response)).toBe(
			`{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected token 'o', \\"not json\\" is not valid JSON"}\n`,
		);
	});

	test("an empty line is a parse error, as in pi", () => {
		expect(reject("").error).toBe("Failed to parse command: Unexpected end of JSON input");
	});

	test("a truncated command names the position", () => {
		expect(reject('{"id":"1","type":"get_state"').error).toBe(
			"Failed to parse command: Expected ',' or '}' after property value in JSON at position 28 (line 1 column 29)",
		);
	});
});

describe("v8JsonParseErrorMessage (checked against Node 22.19)", () => {
	const cases: [string, string][] = [
		["", "Unexpected end of JSON input"],
		["   ", "Unexpected end of JSON input"],
		["hello", `Unexpected token 'h', "hello" is not valid JSON`],
		["abcdefghijklmnopqrstu", `Unexpected token 'a', "abcdefghij"... is not valid JSON`],
		["[1,2,3,4,5,6,7,8,9,x]", `Unexpected token 'x', ..."5,6,7,8,9,x]" is not valid JSON`],
		[
			"[1,2,3,4,5,6,7,8,9,10,11,12,x,13,14,15,16,17,18,19,20]",
			`Unexpected token 'x', ...",10,11,12,x,13,14,15"... is not valid JSON`,
		],
		["undefined", `"undefined" is not valid JSON`],
		["{", "Expected property name or '}' in JSON at position 1 (line 1 column 2)"],
		['{"type"', "Expected ':' after property name in JSON at position 7 (line 1 column 8)"],
		['{"type":', "Unexpected end of JSON input"],
		['{"type":"x",}', "Expected double-quoted property name in JSON at position 12 (line 1 column 13)"],
		["[1 2]", "Expected ',' or ']' after array element in JSON at position 3 (line 1 column 4)"],
		["[1,]", `Unexpected token ']', "[1,]" is not valid JSON`],
		['{"a":1}x', "Unexpected non-whitespace character after JSON at position 7 (line 1 column 8)"],
		['"abc', "Unterminated string in JSON at position 4 (line 1 column 5)"],
		['"a\\q"', "Bad escaped character in JSON at position 3 (line 1 column 4)"],
		['"\\u12G4"', "Bad Unicode escape in JSON at position 5 (line 1 column 6)"],
		['"a\tb"', "Bad control character in string literal in JSON at position 2 (line 1 column 3)"],
		["-", "No number after minus sign in JSON at position 1 (line 1 column 2)"],
		["1.", "Unterminated fractional number in JSON at position 2 (line 1 column 3)"],
		["1e+", "Exponent part is missing a number in JSON at position 3 (line 1 column 4)"],
		["01", "Unexpected number in JSON at position 1 (line 1 column 2)"],
		['t"', "Unexpected string in JSON at position 1 (line 1 column 2)"],
		["tru", "Unexpected end of JSON input"],
		["\u2028", `Unexpected token '\u2028', "\u2028" is not valid JSON`],
		['{\r\n"a" 1}', "Expected ':' after property name in JSON at position 7 (line 2 column 5)"],
		[
			'{"type":"😀😀😀😀😀😀😀" x}',
			"Expected ',' or '}' after property value in JSON at position 25 (line 1 column 26)",
		],
	];
	for (const [input, message] of cases) {
		test(JSON.stringify(input), () => {
			expect(v8JsonParseErrorMessage(input)).toBe(message);
		});
	}

	test("valid JSON gives undefined; deep nesting does not overflow", () => {
		expect(v8JsonParseErrorMessage('{"a":[1,-2.5e+3,true,null,"\\u00e9"]}')).toBeUndefined();
		expect(v8JsonParseErrorMessage(`${"[".repeat(100_000)}x`)).toStartWith("Unexpected token 'x'");
	});
});

describe("parseCommandLine: unknown commands", () => {
	test("echoes the id and names the type", () => {
		const result = reject('{"id":"req-9","type":"frobnicate"}');
		expect(result.error).toBe("Unknown command: frobnicate");
		expect(serializeJsonLine(result.response)).toBe(
			'{"id":"req-9","type":"response","command":"frobnicate","success":false,"error":"Unknown command: frobnicate"}\n',
		);
	});

	test("a missing type, or a line that is not an object: command absent, 'undefined' in the text", () => {
		for (const line of ['{"id":"x"}', "42", '"str"', "[]", "null"]) {
			const result = reject(line);
			expect(result.error).toBe("Unknown command: undefined");
			expect(result.response.command).toBeUndefined();
		}
		expect(reject('{"id":"x"}').response.id).toBe("x");
	});

	test("a non-string type is named as pi names it", () => {
		expect(reject('{"type":5}').error).toBe("Unknown command: 5");
	});

	test("inherited property names are not commands", () => {
		expect(reject('{"type":"toString"}').error).toBe("Unknown command: toString");
		expect(reject('{"type":"__proto__"}').error).toBe("Unknown command: __proto__");
	});
});

describe("parseCommandLine: missing or invalid fields", () => {
	test("missing required field", () => {
		const result = reject('{"id":"r1","type":"set_model","provider":"anthropic"}');
		expect(result.error).toBe('Invalid set_model command: missing "modelId" (a string)');
		expect(result.response).toEqual({
			id: "r1",
			type: "response",
			command: "set_model",
			success: false,
			error: 'Invalid set_model command: missing "modelId" (a string)',
		});
		expect(reject('{"type":"prompt"}').error).toBe('Invalid prompt command: missing "message" (a string)');
	});

	test("wrong types and enum values", () => {
		expect(reject('{"type":"set_auto_compaction","enabled":"yes"}').error).toBe(
			'Invalid set_auto_compaction command: "enabled" must be a boolean',
		);
		expect(reject('{"type":"set_steering_mode","mode":"some"}').error).toBe(
			'Invalid set_steering_mode command: "mode" must be one of "all", "one-at-a-time"',
		);
		expect(reject('{"type":"prompt","message":"x","streamingBehavior":"later"}').error).toBe(
			'Invalid prompt command: "streamingBehavior" must be one of "steer", "followUp"',
		);
		expect(reject('{"type":"prompt","message":"x","images":[{"type":"image"}]}').error).toStartWith(
			'Invalid prompt command: "images" must be an array of images',
		);
		expect(reject('{"type":"set_thinking_level","level":"extreme"}').error).toStartWith(
			'Invalid set_thinking_level command: "level" must be one of "off"',
		);
	});
});

describe("response builders", () => {
	test("pi's key order; data and id omitted when undefined", () => {
		expect(serializeJsonLine(successResponse(undefined, "abort"))).toBe(
			'{"type":"response","command":"abort","success":true}\n',
		);
		expect(serializeJsonLine(successResponse("a", "export_html", { path: "/x.html" }))).toBe(
			'{"id":"a","type":"response","command":"export_html","success":true,"data":{"path":"/x.html"}}\n',
		);
		expect(serializeJsonLine(successResponse("c", "cycle_model", null))).toBe(
			'{"id":"c","type":"response","command":"cycle_model","success":true,"data":null}\n',
		);
		expect(serializeJsonLine(errorResponse("b", "set_session_name", "Session name cannot be empty"))).toBe(
			'{"id":"b","type":"response","command":"set_session_name","success":false,"error":"Session name cannot be empty"}\n',
		);
	});
});

describe("speed", () => {
	test("get_state parses in a few microseconds", () => {
		const line = '{"id":"req_1","type":"get_state"}';
		for (let i = 0; i < 1000; i++) parseCommandLine(line);
		const rounds = 20_000;
		const started = performance.now();
		for (let i = 0; i < rounds; i++) parseCommandLine(line);
		const perCall = (performance.now() - started) / rounds;
		expect(perCall).toBeLessThan(0.01);
	});
});

describe("command rules and their TypeBox schemas", () => {
	test("parseCommandLine accepts exactly what rpcCommandSchemas() describes", () => {
		const image = { type: "image", data: "AAAA", mimeType: "image/png" };
		const values: unknown[] = [
			undefined,
			null,
			"",
			"x",
			"all",
			"steer",
			"high",
			true,
			0,
			[],
			[image],
			[{ ...image, type: "text" }],
			[{ type: "image", data: 1, mimeType: "x" }],
			[null],
			{},
		];
		const schemas = rpcCommandSchemas();
		for (const type of RPC_COMMAND_TYPES) {
			const schema = schemas[type];
			const fields = Object.keys(schema.properties).filter((name) => name !== "type" && name !== "id");
			const samples: Record<string, unknown>[] = [{ type, id: "1" }];
			for (const field of fields) for (const value of values) samples.push({ type, id: 2, [field]: value });
			if (fields.length > 1) samples.push(Object.fromEntries([["type", type], ...fields.map((f) => [f, "x"])]));
			for (const sample of samples) {
				const line = JSON.stringify(sample);
				expect([line, parseCommandLine(line).ok]).toEqual([line, Check(schema, JSON.parse(line))]);
			}
		}
	});
});
