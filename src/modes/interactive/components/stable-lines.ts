/**
 * Stable output for transcript components: when every child hands back the same line array as in the last frame,
 * the component hands back its own last array too. The renderer skips a block whose array it has seen, so a frame
 * costs only the parts of the transcript that changed, however long the session.
 */
import { type Component, Container } from "../../../tui/index.ts";

interface Memo {
	width: number;
	children: Component[];
	arrays: string[][];
	lines: string[];
}

/** A Container whose render result keeps its identity while its children's do. */
export class StableContainer extends Container {
	private memo: Memo | undefined;

	/** What the stacked lines become (a subclass adds marks); must not keep `lines` if it changes them. */
	protected finish(lines: string[]): string[] {
		return lines;
	}

	override invalidate(): void {
		this.memo = undefined;
		super.invalidate();
	}

	override render(width: number): string[] {
		const children = this.children;
		const memo = this.memo;
		const arrays: string[][] = new Array(children.length);
		let same = memo !== undefined && memo.width === width && memo.children.length === children.length;
		for (let i = 0; i < children.length; i++) {
			const child = children[i] as Component;
			const array = child.render(width);
			arrays[i] = array;
			if (same && (memo?.children[i] !== child || memo?.arrays[i] !== array)) same = false;
		}
		if (same && memo) return memo.lines;
		const stacked: string[] = [];
		for (const array of arrays) for (const line of array) stacked.push(line);
		const lines = this.finish(stacked);
		this.memo = { width, children: [...children], arrays, lines };
		return lines;
	}
}
