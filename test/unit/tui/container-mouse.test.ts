import { expect, test } from "bun:test";
import { Box, Container, Text } from "../../../src/tui/basic.ts";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../../../src/tui/types.ts";

class Clickable implements Component {
	seen: TuiMouseEvent[] = [];
	constructor(private readonly rows: number) {}
	render(width: number): string[] {
		return Array.from({ length: this.rows }, () => "x".repeat(width));
	}
	handleMouse(event: TuiMouseEvent): TuiMouseEventResult {
		this.seen.push(event);
		return { handled: true };
	}
	invalidate(): void {}
}

function click(x: number, y: number, width: number, height: number): TuiMouseEvent {
	return {
		type: "click",
		button: "left",
		x,
		y,
		screenX: x,
		screenY: y,
		width,
		height,
		shift: false,
		alt: false,
		ctrl: false,
	};
}

test("Container sends a mouse event to the child under the pointer, in the child's rows", () => {
	const container = new Container();
	const first = new Clickable(2);
	const second = new Clickable(3);
	container.addChild(first);
	container.addChild(new Text("label", 0, 0));
	container.addChild(second);
	const result = container.handleMouse(click(4, 4, 20, 6));
	expect(result?.target.component).toBe(second);
	expect(second.seen[0]?.y).toBe(1);
	expect(first.seen).toEqual([]);
	expect(container.handleMouse(click(0, 2, 20, 6))).toBeUndefined();
});

test("Box leaves its padding alone and shifts coordinates into its content", () => {
	const box = new Box(2, 1);
	const child = new Clickable(2);
	box.addChild(child);
	expect(box.handleMouse(click(1, 1, 20, 4))).toBeUndefined();
	expect(box.handleMouse(click(5, 0, 20, 4))).toBeUndefined();
	const result = box.handleMouse(click(5, 2, 20, 4));
	expect(result?.handled).toBe(true);
	expect(child.seen[0]).toMatchObject({ x: 3, y: 1, width: 16 });
});
