/** Markdown rendering (the component, its theme and options); the implementation lives in ./markdown/. */
export { Markdown } from "./markdown/component.ts";
export type { DefaultTextStyle, MarkdownOptions, MarkdownTheme } from "./markdown/theme.ts";
