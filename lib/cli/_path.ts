/**
 * Value parsers for path arguments: a plain string to the parser, and file
 * names to shell completion (`poly completion bash`), as `@optique/run`'s
 * `path()` offers, without its existence checks (a missing path is a run's
 * errored record with its reason, not a usage error) and without loading
 * `@optique/run` on the fast path.
 *
 * @module
 */
import { message, string, type Suggestion, type ValueParser } from "./_optique.ts";

/** What a path argument names, for completion. */
export type PathKind = "file" | "directory" | "any";

/** A string argument whose completion is the file names (or directories) under what was typed. */
export function pathValue(metavar: "PATH" | "DIR" | "FILE", kind: PathKind = "any"): ValueParser<"sync", string> {
  const base = string({ metavar });
  return {
    ...base,
    *suggest(prefix: string): Iterable<Suggestion> {
      const name = prefix.slice(prefix.lastIndexOf("/") + 1);
      yield {
        kind: "file",
        pattern: prefix,
        type: kind,
        includeHidden: name.startsWith(".") && name !== "..",
        description: kind === "directory" ? message`Directory` : message`File or directory`,
      };
    },
  };
}
