/**
 * What a script's shellcheck result depends on besides its own text where `source` reaches files outside shellcheck's
 * inputs (`-x`): the files it sources, and the files those source. shellcheck reads them for what they assign and
 * define, so a cached result is kept under their bytes, and under the absence of those not there yet.
 *
 * The paths are an over-approximation of what shellcheck follows: every `# shellcheck source=` directive's path and
 * every literal argument of a `source` or `.` command, each looked for where shellcheck looks (the folder it runs in,
 * the script's own for `SCRIPTDIR`, each `source-path`). A path shellcheck cannot follow (one with an expansion and no
 * directive) is none of them, as it is none of shellcheck's.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { digestOf } from "../../cache/digest.ts";

/**
 * Every path some script's context in this process named (there or not): a change to another file changes no
 * script's context. A resident process keeps it from run to run; a one-shot run names it for the run it keeps.
 */
const named = new Set<string>();

/** Whether a change to the file at `path` can change a script's context: a path some context named. */
export function isSourced(path: string): boolean {
  return named.has(resolve(path));
}

/** How deep sourced files' own sources are followed. */
const DEPTH = 8;

/** A directive's path: `# shellcheck source=lib/common.sh` (alone or among other directives on the line). */
const DIRECTIVE = /^\s*#\s*shellcheck\s(?:.*\s)?source=(\S+)/;
/** A `source` or `.` command and its first word, at a command's start. */
const COMMAND = /(?:^|[;&|({]|\b(?:then|do|else)\s)\s*(?:source|\.)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)/g;

/** The paths `text` names to `source` that shellcheck may follow. */
export function sourcedNames(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    const directive = DIRECTIVE.exec(line)?.[1];
    if (directive !== undefined) {
      if (directive !== "/dev/null") out.add(directive);
      continue;
    }
    if (line.trimStart().startsWith("#")) continue;
    for (const m of line.matchAll(COMMAND)) {
      const word = m[1].replace(/^(["'])(.*)\1$/, "$2");
      if (!/[$`*?~]/.test(word) && word !== "") out.add(word);
    }
  }
  return [...out];
}

/** Where shellcheck looks for `name`, sourced by the script at `script` (absolute), run in `root`. */
function candidates(name: string, script: string, root: string, sourcePaths: readonly string[]): string[] {
  const adjust = (path: string) =>
    path === "SCRIPTDIR" || path.startsWith("SCRIPTDIR/") ? join(dirname(script), path.slice(9)) : path;
  const own = adjust(name);
  const out = [isAbsolute(own) ? own : join(root, own)];
  for (const folder of sourcePaths) {
    const at = adjust(folder);
    out.push(join(isAbsolute(at) ? at : join(root, at), name.replace(/^\/+/, "")));
  }
  return out;
}

/**
 * A digest of what `script` (its text `text`) may source, followed from file to file, run in `root` with the
 * `source-path` folders `sourcePaths`; "" when it sources nothing.
 */
export function sourcesContext(script: string, text: string, root: string, sourcePaths: readonly string[]): string {
  const seen = new Map<string, string>();
  const follow = (path: string, body: string, depth: number) => {
    for (const name of sourcedNames(body)) {
      for (const candidate of candidates(name, path, root, sourcePaths)) {
        if (seen.has(candidate)) continue;
        named.add(resolve(candidate));
        let bytes: Uint8Array | undefined;
        try {
          bytes = Deno.readFileSync(candidate);
        } catch {
          // Not there (or not a file): its absence is what the result depends on.
        }
        seen.set(candidate, bytes === undefined ? "-" : digestOf(bytes));
        if (bytes !== undefined && depth < DEPTH) follow(candidate, new TextDecoder().decode(bytes), depth + 1);
      }
    }
  };
  follow(script, text, 1);
  if (seen.size === 0) return "";
  return digestOf([...seen].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([p, d]) => `${p}\0${d}`).join("\n"));
}
