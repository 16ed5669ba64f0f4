/**
 * A small glob matcher for manifest entries (`*`, `**`, `?`, `{a,b}`), so resource lists work the same
 * under Bun and Node without a dependency. Paths use `/`.
 */

export function isGlob(pattern: string): boolean {
	return /[*?{]/.test(pattern);
}

const cache = new Map<string, RegExp>();

export function matchGlob(pattern: string, path: string): boolean {
	let re = cache.get(pattern);
	if (!re) {
		re = new RegExp(`^${globToRegexSource(pattern)}$`);
		cache.set(pattern, re);
	}
	return re.test(path);
}

function globToRegexSource(pattern: string): string {
	let out = "";
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i] as string;
		if (c === "*") {
			if (pattern[i + 1] === "*") {
				const slash = pattern[i + 2] === "/";
				out += slash ? "(?:.*/)?" : ".*";
				i += slash ? 2 : 1;
			} else {
				out += "[^/]*";
			}
		} else if (c === "?") {
			out += "[^/]";
		} else if (c === "{") {
			const end = pattern.indexOf("}", i);
			if (end === -1) {
				out += "\\{";
				continue;
			}
			const alternatives = pattern
				.slice(i + 1, end)
				.split(",")
				.map(globToRegexSource);
			out += `(?:${alternatives.join("|")})`;
			i = end;
		} else {
			out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
		}
	}
	return out;
}
