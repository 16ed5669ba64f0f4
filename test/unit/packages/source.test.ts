import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { identityOf, isRemoteSource, type PackageSource, parseSource } from "../../../src/packages/index.ts";
import { UserError } from "../../../src/util/index.ts";

const parse = (raw: string): PackageSource => parseSource(raw, "/base/dir");
const id = (raw: string): string => identityOf(parse(raw));

describe("npm sources", () => {
	test("name, scoped name, version, range, tag", () => {
		expect(parse("npm:foo")).toEqual({ type: "npm", raw: "npm:foo", name: "foo", spec: "foo", pinned: false });
		expect(parse("npm:@scope/name@^1.2")).toMatchObject({
			name: "@scope/name",
			version: "^1.2",
			spec: "@scope/name@^1.2",
			pinned: false,
		});
		expect(parse("npm:foo@1.2.3")).toMatchObject({ version: "1.2.3", spec: "foo@1.2.3", pinned: true });
		expect(parse("npm:foo@latest")).toMatchObject({ version: "latest", pinned: false });
		expect(parse("npm:foo@>=1 <2")).toMatchObject({ version: ">=1 <2", pinned: false });
		expect(parse("npm:foo@1.0.0 - 2.0.0")).toMatchObject({ version: "1.0.0 - 2.0.0" });
		expect(parse("npm:@scope/name")).toMatchObject({ name: "@scope/name", spec: "@scope/name" });
	});
	test("identity is the name, whatever the version", () => {
		expect(id("npm:foo@1.2.3")).toBe("npm:foo");
		expect(id("npm:foo")).toBe(id("npm:foo@latest"));
		expect(id("npm:@scope/name@^1")).toBe("npm:@scope/name");
	});
	test.each([
		"npm:",
		"npm:foo;rm",
		"npm:foo;rm -rf /",
		"npm:-x",
		"npm:Foo",
		"npm:@scope",
		"npm:foo bar",
		"npm:foo@",
		"npm:foo@1;rm",
		"npm:foo@$(x)",
		"npm:foo@`x`",
		"npm:foo@1 --registry=http://evil",
		"npm:foo@npm:bar",
		"npm:foo@file:../x",
		"npm:foo@git+https://x",
	])("refuses %p with one line naming it", (raw) => {
		expect(() => parse(raw)).toThrow(UserError);
		try {
			parse(raw);
		} catch (error) {
			expect((error as Error).message).toContain(`"${raw.trim()}"`);
			expect((error as Error).message).not.toContain("\n");
		}
	});
});

describe("git sources", () => {
	test("git: shorthand, URLs, scp form, refs", () => {
		expect(parse("git:github.com/o/r")).toEqual({
			type: "git",
			raw: "git:github.com/o/r",
			repo: "https://github.com/o/r",
			host: "github.com",
			path: "o/r",
			pinned: false,
		});
		expect(parse("git:github.com/o/r@v1")).toMatchObject({ ref: "v1", pinned: true, repo: "https://github.com/o/r" });
		expect(parse("https://github.com/o/r.git")).toMatchObject({ repo: "https://github.com/o/r", path: "o/r" });
		expect(parse("https://github.com/o/r@v1")).toMatchObject({ ref: "v1", repo: "https://github.com/o/r" });
		expect(parse("ssh://git@github.com/o/r")).toMatchObject({ repo: "ssh://git@github.com/o/r", host: "github.com" });
		expect(parse("git@github.com:o/r.git@main")).toMatchObject({ repo: "git@github.com:o/r", ref: "main" });
		expect(parse("git:git@github.com:o/r")).toMatchObject({ repo: "git@github.com:o/r" });
		expect(parse("git://github.com/o/r")).toMatchObject({ repo: "git://github.com/o/r" });
		expect(parse("http://host:8080/o/r")).toMatchObject({ host: "host:8080" });
		expect(parse("git:github.com/o/r@refs/tags/v1")).toMatchObject({ ref: "refs/tags/v1" });
		expect(parse("file:///tmp/repo@v2")).toMatchObject({ repo: "file:///tmp/repo", host: "local", ref: "v2" });
	});
	test("one identity across https, ssh, scp and git: spellings, refs and .git suffixes", () => {
		const spellings = [
			"git:github.com/o/r",
			"git:github.com/o/r@v1",
			"git:GitHub.com/o/r",
			"https://github.com/o/r",
			"https://github.com/o/r.git",
			"https://github.com/o/r/",
			"https://user:token@github.com/o/r",
			"http://github.com/o/r@main",
			"ssh://git@github.com/o/r",
			"git@github.com:o/r",
			"git@github.com:o/r.git@v2",
			"git:git@github.com:o/r",
			"git://github.com/o/r",
		];
		for (const raw of spellings) expect(id(raw)).toBe("git:github.com/o/r");
		expect(id("git:github.com/o/other")).not.toBe("git:github.com/o/r");
	});
	test.each([
		"-x",
		"--upload-pack=touch /tmp/x",
		"git:--upload-pack=x/y",
		"https://github.com/o/r --upload-pack=x",
		"git:-oProxyCommand=x/o/r",
		"https://-oProxyCommand=x/o/r",
		"ssh://-oProxyCommand=x@host/o/r",
		"git@-oProxy:o/r",
		"git:host/../x",
		"git:github.com/o/../x",
		"git:github.com/.hidden/r",
		"file:///tmp/../repo",
		"git:github.com/o/r@-x",
		"git:github.com/o/r@../x",
		"git:github.com/o/r@v1.lock",
		"git:github.com/o/r@",
		"git:github.com/o/r@$(x)",
		"git:github.com/o/r@v1;rm",
		"git:github.com/o/r|x",
		"https://github.com/o/r#v1",
		"git:github.com",
		"https://github.com",
	])("refuses %p", (raw) => {
		expect(() => parse(raw)).toThrow(UserError);
	});
});

describe("local sources", () => {
	test("relative to the given folder, absolute, ~", () => {
		expect(parse("./pkg")).toEqual({ type: "local", raw: "./pkg", path: "/base/dir/pkg" });
		expect(parse("../up")).toMatchObject({ path: "/base/up" });
		expect(parse("/abs/pkg/")).toMatchObject({ path: "/abs/pkg" });
		expect(parse("~/pkg")).toMatchObject({ path: `${homedir()}/pkg` });
		expect(id("./pkg")).toBe("local:/base/dir/pkg");
		expect(identityOf(parseSource("../dir/pkg", "/base/other"))).toBe(id("./pkg"));
	});
	test("refuses empty, option-like and control characters", () => {
		expect(() => parse("")).toThrow(UserError);
		expect(() => parse("   ")).toThrow(UserError);
		expect(() => parse("-rf")).toThrow(UserError);
		expect(() => parse("./a\u0007b")).toThrow(UserError);
	});
	test("isRemoteSource tells sources from paths", () => {
		for (const raw of ["npm:x", "git:h/o/r", "https://h/o/r", "ssh://h/o/r", "git@h:o/r", "file:///x"]) {
			expect(isRemoteSource(raw)).toBe(true);
		}
		for (const raw of ["./x", "/x", "~/x", "x"]) expect(isRemoteSource(raw)).toBe(false);
	});
});
