/** `pi-tui`: terminal UI components. Filled by the TUI issue. */
export {};
