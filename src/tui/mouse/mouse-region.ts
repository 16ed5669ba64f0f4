/** MouseRegion: mouse handling added around an existing component, which renders unchanged. */
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../types.ts";
import { dispatchMouseEvent, type TuiMouseDispatchResult } from "./dispatch.ts";

export type MouseRegionHandler = (event: TuiMouseEvent) => TuiMouseEventResult | undefined;

export class MouseRegion implements Component {
	constructor(
		private readonly child: Component,
		private readonly onMouse: MouseRegionHandler,
	) {}

	render(width: number): string[] {
		return this.child.render(width);
	}

	/** The child gets the event first; the region's handler sees what the child left unhandled. */
	handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | TuiMouseEventResult | undefined {
		return dispatchMouseEvent(this.child, event) ?? this.onMouse(event);
	}

	invalidate(): void {
		this.child.invalidate();
	}
}
