/** pi-tui re-exports marked's `Marked` class so extensions can parse Markdown with the same library version. */
export { Marked } from "marked";
