/**
 * Delivering a mouse event to a component and remembering which component took it, with the coordinate transform,
 * so that captured drags and the click that follows a release reach the same target.
 */
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../types.ts";

export interface TuiMouseDispatchTarget {
	component: Component;
	/** Screen position of the target's top-left cell. */
	originX: number;
	originY: number;
	width: number;
	height: number;
}

/** A handled dispatch: who handled it and (for `focus`) which component should get keyboard focus. */
export interface TuiMouseDispatchResult extends TuiMouseEventResult {
	handled: true;
	target: TuiMouseDispatchTarget;
	focusTarget?: Component;
}

type AnyMouseResult = TuiMouseEventResult | TuiMouseDispatchResult;

function isDispatchResult(result: AnyMouseResult): result is TuiMouseDispatchResult {
	return "target" in result && result.target !== undefined;
}

/**
 * Give `event` (in `component`'s coordinates) to the component. A component without `handleMouse` but with
 * `children` (a plain Container) passes it to the child under the pointer, rows counted from its rendered lines.
 * Returns undefined when nobody handled it.
 */
export function dispatchMouseEvent(component: Component, event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
	const own = component.handleMouse
		? (component.handleMouse(event) as AnyMouseResult | undefined)
		: dispatchToChildRows(component, event);
	if (!own) return undefined;
	if (isDispatchResult(own)) return own;
	if (!own.handled && !own.capture && !own.focus) return undefined;
	return {
		...own,
		handled: true,
		...(own.focus ? { focusTarget: component } : {}),
		target: {
			component,
			originX: event.screenX - event.x,
			originY: event.screenY - event.y,
			width: event.width,
			height: event.height,
		},
	};
}

/** The same pointer position expressed in a previously found target's coordinates. */
export function retargetMouseEvent(event: TuiMouseEvent, target: TuiMouseDispatchTarget): TuiMouseEvent {
	return {
		...event,
		x: event.screenX - target.originX,
		y: event.screenY - target.originY,
		width: target.width,
		height: target.height,
	};
}

/**
 * Route `event` (in the parent's coordinates) to the child of `children` (stacked vertically, each `event.width`
 * wide) whose rows are under the pointer. A child asking for focus gives it to `focusOwner` when that takes keys.
 */
export function dispatchToChildren(
	children: readonly Component[],
	event: TuiMouseEvent,
	focusOwner?: Component,
): TuiMouseDispatchResult | undefined {
	if (event.y < 0 || event.y >= event.height) return undefined;
	let top = 0;
	for (const child of children) {
		const height = child.render(event.width).length;
		if (event.y < top + height) {
			const result = dispatchMouseEvent(child, { ...event, y: event.y - top, height });
			if (result?.focus && focusOwner?.handleInput) return { ...result, focusTarget: focusOwner };
			return result;
		}
		top += height;
	}
	return undefined;
}

function dispatchToChildRows(component: Component, event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
	const children = (component as { children?: unknown }).children;
	return Array.isArray(children) ? dispatchToChildren(children as Component[], event, component) : undefined;
}
