/**
 * Interactive conformance scenarios whose essential content differs in ours today, each with the reason.
 * interactive-conformance.test.ts reports these; an unlisted scenario must match pi 0.87.1, and a listed one that
 * matches now fails the test until its line is deleted (the list only shrinks).
 */
export const KNOWN_DIFFERENT: Record<string, string> = {};
