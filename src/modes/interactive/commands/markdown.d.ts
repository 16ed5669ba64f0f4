/** Bun's `with { type: "text" }` import of a Markdown file: its text. */
declare module "*.md" {
	const text: string;
	export default text;
}
