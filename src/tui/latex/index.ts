/** `renderLatex`: a LaTeX math expression as terminal text (Unicode symbols; stacked layout in display mode). */
import { HARD_SPACE, type LayoutNode, layOut } from "./layout.ts";
import { MathReader } from "./reader.ts";

export interface RenderLatexOptions {
	/** Stack fractions and put operator limits above/below, over several lines (default: false, one line). */
	display?: boolean;
}

/** The expression as Unicode text, or undefined when it uses unsupported commands or is malformed. */
export function renderLatex(source: string, options: RenderLatexOptions = {}): string | undefined {
	const nodes: LayoutNode[] = [];
	const text = new MathReader(source, nodes, options.display === true).read();
	if (text === undefined) return undefined;
	if (nodes.length === 0) return text.replaceAll(HARD_SPACE, " ");
	const lines = layOut(text, nodes).lines;
	const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
	return lines
		.map((line) => line.slice(indent).trimEnd())
		.join("\n")
		.trimEnd()
		.replaceAll(HARD_SPACE, " ");
}
