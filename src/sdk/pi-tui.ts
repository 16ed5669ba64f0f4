/** `pi-tui`: terminal UI components, key decoding and width helpers, as extensions import them. */
export * from "../tui/index.ts";
