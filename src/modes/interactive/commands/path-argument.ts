/**
 * The path argument of `/export` and `/import` as pi 0.87.1 reads it: the first word, or the text between a leading
 * pair of quotes (a quote that never closes gives no path).
 */
export function pathArgument(args: string): string | undefined {
	const text = args.trimStart();
	if (!text) return undefined;
	const quote = text[0];
	if (quote === '"' || quote === "'") {
		const end = text.indexOf(quote, 1);
		return end < 0 ? undefined : text.slice(1, end);
	}
	const space = text.search(/\s/);
	return space < 0 ? text : text.slice(0, space);
}
