// Written by scripts/compile.ts for compiled builds; this is the from-source value.
/** Build stamp. */
export const STAMP: { buildId: string; channel: "release" | "dev" } = { buildId: "dev", channel: "dev" };
