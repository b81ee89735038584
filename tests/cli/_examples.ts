/**
 * The words of a help example (`lib/cli/examples.ts`) as a shell would pass them: a
 * leading `NAME=value` environment assignment dropped, single quotes grouping.
 *
 * @example
 * ```ts
 * exampleWords("POLY_DEBUG=1 poly lint --exclude 'a b'"); // ["poly", "lint", "--exclude", "a b"]
 * ```
 *
 * @module
 */

/** The example's words, starting with `poly`. */
export function exampleWords(line: string): string[] {
  return line.replace(/^\S+=\S+ /, "").match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'|'$/g, ""));
}
