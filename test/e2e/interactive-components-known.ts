/**
 * Transcript pictures that still differ from pi 0.87.1's (test/e2e/interactive-components-parity.test.ts), with the
 * reason. Keys are "<case>" (every width) or "<case>@<width>". A listed picture that matches fails the test:
 * delete its entry.
 */
export const KNOWN_TRANSCRIPT_DIFFERENCES: Record<string, string> = {};
