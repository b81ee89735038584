/**
 * Text helpers for reading other programs' output.
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Removes ANSI colour sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}
