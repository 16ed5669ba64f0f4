/**
 * The transcript's lines in frozen chunks, so a frame costs what changed rather than the length of the session.
 *
 * Children are grouped by position into chunks of CHUNK. A chunk whose children have all settled (they change only
 * through calls the transcript makes, or tell it when they change) and that lies at least TAIL children before the
 * end is frozen: its children's lines are joined once into one array, handed back as it is until the chunk is thawed,
 * and its children are not asked to render again. Every other child renders each frame as before and is its own
 * block. A frame therefore costs one identity check per child (to notice insertions and removals), one per chunk, and
 * the renders of the live tail. GROUP frozen chunks in a row are joined once more into one segment, so a long session
 * is a few dozen blocks per frame rather than hundreds.
 *
 * A chunk thaws when children are inserted or removed at or before it (the transcript says so with `thawFrom`; a frozen
 * chunk also checks that its first and last child are still in place), the width changes, the transcript thaws everything (expand/collapse,
 * thinking visibility, a theme change), or one of its children reports a change (`SettledComponent.onSettledChange`).
 */
import { type Component, Spacer, Text } from "../../../tui/index.ts";

/** A transcript component that can say it will no longer change on its own. */
export interface SettledComponent extends Component {
	/** True once the component changes only through the transcript's calls or by calling `onSettledChange`. */
	isSettled(): boolean;
	/** Set by the transcript: called when a settled component's lines change for another reason. */
	onSettledChange?: (() => void) | undefined;
}

/** Children per chunk. */
export const CHUNK = 32;
/** Frozen chunks per segment. */
export const GROUP = 32;
/** Children at the end that are never frozen (the latest notices and replies change in place). */
export const TAIL = 8;

interface Chunk {
	width: number;
	/** Children covered. */
	size: number;
	/** A chunk's children; a segment's first and last child. */
	children: Component[];
	lines: string[];
}

function isSettled(component: Component): boolean {
	const ctor = component.constructor;
	if (ctor === Spacer || ctor === Text) return true;
	const settles = (component as Partial<SettledComponent>).isSettled;
	return typeof settles === "function" && settles.call(component) === true;
}

export class FrozenChunks {
	private chunks: (Chunk | undefined)[] = [];
	/** Runs of GROUP frozen chunks joined (`children` holds only the run's first and last child). */
	private segments: (Chunk | undefined)[] = [];
	private flat: { blocks: string[][]; lines: string[] } | undefined;

	/** Forget every frozen chunk (the next frame asks every child again). */
	thawAll(): void {
		this.chunks = [];
		this.segments = [];
	}

	/** Forget the chunks from the one holding position `index` on (children were inserted or removed there). */
	thawFrom(index: number): void {
		const first = Math.floor(Math.max(0, index) / CHUNK);
		if (this.chunks.length > first) this.chunks.length = first;
		const segment = Math.floor(first / GROUP);
		if (this.segments.length > segment) this.segments.length = segment;
	}

	/** Forget the chunk that holds `child`. */
	thaw(children: readonly Component[], child: Component): void {
		const index = children.indexOf(child);
		if (index < 0) return;
		this.chunks[Math.floor(index / CHUNK)] = undefined;
		this.segments[Math.floor(index / (CHUNK * GROUP))] = undefined;
	}

	/** The children's lines as blocks: one per frozen segment, one per other frozen chunk, one per other child. */
	blocks(children: readonly Component[], width: number, changed: (child: Component) => () => void): string[][] {
		const out: string[][] = [];
		const count = Math.ceil(children.length / CHUNK);
		if (this.chunks.length > count) this.chunks.length = count;
		const span = CHUNK * GROUP;
		const segments = Math.ceil(children.length / span);
		if (this.segments.length > segments) this.segments.length = segments;
		for (let s = 0; s < segments; s++) {
			const from = s * span;
			const to = Math.min(children.length, from + span);
			const segment = this.segments[s];
			if (segment !== undefined && segment.width === width && this.holds(segment, children, from, to)) {
				out.push(segment.lines);
				continue;
			}
			this.segments[s] = undefined;
			const start = out.length;
			const frozen = this.chunkBlocks(children, width, changed, s * GROUP, Math.min(count, (s + 1) * GROUP), out);
			if (frozen < GROUP) continue;
			const lines: string[] = [];
			for (let b = start; b < out.length; b++) for (const line of out[b] as string[]) lines.push(line);
			out.length = start;
			out.push(lines);
			const ends = [children[from] as Component, children[to - 1] as Component];
			this.segments[s] = { width, size: to - from, children: ends, lines };
		}
		return out;
	}

	/** Blocks of chunks `first` to `end` (exclusive) appended to `out`; how many of them are frozen. */
	private chunkBlocks(
		children: readonly Component[],
		width: number,
		changed: (child: Component) => () => void,
		first: number,
		end: number,
		out: string[][],
	): number {
		const frozenEnd = children.length - TAIL;
		let frozen = 0;
		for (let c = first; c < end; c++) {
			const from = c * CHUNK;
			const to = Math.min(children.length, from + CHUNK);
			const chunk = this.chunks[c];
			if (chunk !== undefined && chunk.width === width && this.holds(chunk, children, from, to)) {
				out.push(chunk.lines);
				frozen++;
				continue;
			}
			this.chunks[c] = undefined;
			const full = to - from === CHUNK && to <= frozenEnd;
			let settled = full;
			const arrays: string[][] = [];
			for (let i = from; i < to; i++) {
				const child = children[i] as Component;
				arrays.push(child.render(width));
				if (settled && !isSettled(child)) settled = false;
			}
			if (!settled) {
				for (const array of arrays) out.push(array);
				continue;
			}
			const lines: string[] = [];
			for (const array of arrays) for (const line of array) lines.push(line);
			const members = children.slice(from, to);
			for (const child of members) (child as Partial<SettledComponent>).onSettledChange = changed(child);
			this.chunks[c] = { width, size: members.length, children: members, lines };
			out.push(lines);
			frozen++;
		}
		return frozen;
	}

	/** All lines as one array, the same array while no block changed. */
	lines(blocks: string[][]): string[] {
		const flat = this.flat;
		if (flat && flat.blocks.length === blocks.length && flat.blocks.every((block, i) => block === blocks[i]))
			return flat.lines;
		const lines: string[] = [];
		for (const block of blocks) for (const line of block) lines.push(line);
		this.flat = { blocks, lines };
		return lines;
	}

	private holds(chunk: Chunk, children: readonly Component[], from: number, to: number): boolean {
		const members = chunk.children;
		return to - from === chunk.size && children[from] === members[0] && children[to - 1] === members.at(-1);
	}
}
