/**
 * The ast-grep command line's side of the rules batch path: the path arguments
 * (chunked, relative to one directory), what comes back (JSON matches, the
 * `--inspect` traces of which files were scanned), and the file's text
 * addressed by the UTF-8 byte offsets the command line reports, as napi
 * addresses it. `batch.ts` decides what runs where and turns matches into hits.
 *
 * @module
 */
import { dirname, sep } from "node:path";
import type { MatchNode, Position16 } from "./_match.ts";
import { indexToPosition, lineStarts } from "../text.ts";

/** Splits `items` into runs whose `size` sums stay under `limit` (at least one item each). */
export function chunks<T>(items: T[], size: (item: T) => number, limit: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const n = size(item);
    if (current.length > 0 && bytes + n > limit) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The deepest directory containing every path (absolute, normalized paths). */
export function commonDir(paths: string[]): string {
  let common = dirname(paths[0]);
  for (const path of paths) {
    while (below(common, path) === undefined) {
      const parent = dirname(common);
      if (parent === common) return common;
      common = parent;
    }
  }
  return common;
}

/** `path` relative to `dir` when it lies below it (absolute, normalized paths), else undefined. */
export function below(dir: string, path: string): string | undefined {
  if (!path.startsWith(dir)) return undefined;
  if (dir.endsWith(sep)) return path.length > dir.length ? path.slice(dir.length) : undefined;
  return path[dir.length] === sep && path.length > dir.length + 1 ? path.slice(dir.length + 1) : undefined;
}

export interface CliRange {
  byteOffset: { start: number; end: number };
}

export interface CliMatch {
  file: string;
  ruleId: string;
  text: string;
  range: CliRange;
  replacementOffsets?: { start: number; end: number };
  metaVariables?: {
    single?: Record<string, { text: string; range: CliRange }>;
    multi?: Record<string, { text: string; range: CliRange }[]>;
  };
}

export const SUMMARY = /^sg: summary\|file: scannedFileCount=(\d+),skippedFileCount=(\d+)\r?$/m;
export const SCANNED = /^sg: entity\|file\|(.*): language=([^,]*),appliedRuleCount=(\d+)$/;

/** Path (normalized) → the languages the command line scanned it as. */
export type Scanned = Map<string, Set<string> | undefined>;

/**
 * With `--inspect summary`: every path but those it names in an `ERROR:` line,
 * when the counts say all of the others were scanned and none skipped (a file
 * that is not UTF-8, for one) but the ones `skips` names; undefined when they do
 * not add up, or an error names no path. `skips` is asked only when the summary
 * counts skipped files: the paths the command line skips as it reads them (empty
 * files, which Python's `__init__.py` often are), or undefined when it cannot
 * tell; a path it names is left out, as one the command line did not scan.
 */
export function scannedBySummary(
  stderr: string,
  paths: string[],
  skips?: () => ReadonlySet<string> | undefined,
): Scanned | undefined {
  const summary = SUMMARY.exec(stderr);
  if (!summary) return undefined;
  const errored = new Set<string>();
  for (const line of stderr.split("\n")) {
    if (!/^error/i.test(line)) continue;
    const path = paths.find((p) => line.startsWith(`ERROR: ${p}: `) || line.startsWith(`ERROR: ${normalize(p)}: `));
    if (path === undefined) return undefined;
    errored.add(path);
  }
  if (Number(summary[1]) !== paths.length - errored.size) return undefined;
  const skipped = Number(summary[2]) === 0 ? new Set<string>() : skips?.();
  if (skipped?.size !== Number(summary[2])) return undefined;
  return new Map(paths.filter((p) => !errored.has(p) && !skipped.has(p)).map((p) => [normalize(p), undefined]));
}

/** With `--inspect entity`: the paths it reports scanning, each with the languages it used (rules applied). */
export function scannedByEntity(stderr: string): Scanned {
  const scanned: Scanned = new Map();
  for (const line of stderr.split("\n")) {
    const m = SCANNED.exec(line.replace(/\r$/, ""));
    if (!m || Number(m[3]) === 0) continue;
    const key = normalize(m[1]);
    const languages = scanned.get(key) ?? new Set<string>();
    languages.add(m[2]);
    scanned.set(key, languages);
  }
  return scanned;
}

/** A path as the command line prints it, comparable with what poly passed. */
export function normalize(path: string): string {
  let p = Deno.build.os === "windows" ? path.replaceAll("\\", "/") : path;
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

/** A byte offset or text of the command line's output that does not fit the text poly read. */
export class Misfit extends Error {}

/** A file's text addressed by UTF-8 byte offsets (the command line's) as napi addresses it. */
export class TextSource {
  readonly #text: string;
  #lineStarts?: number[];
  /** UTF-8 byte offset → UTF-16 index, -1 inside a character; undefined for ASCII text. */
  #indexOf?: Int32Array;
  readonly #bytes: number;

  constructor(text: string) {
    this.#text = text;
    // deno-lint-ignore no-control-regex
    if (/^[\x00-\x7f]*$/.test(text)) {
      this.#bytes = text.length;
      return;
    }
    const table: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      table.push(i);
      if (unit < 0x80) continue;
      if (unit < 0x800) table.push(-1);
      else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          table.push(-1, -1, -1);
          i++;
        } else table.push(-1, -1);
      } else table.push(-1, -1);
    }
    table.push(text.length);
    this.#indexOf = Int32Array.from(table);
    this.#bytes = table.length - 1;
  }

  /** The UTF-16 index of a byte offset; {@link Misfit} when it is not a character boundary of the text. */
  index(byte: number): number {
    if (!Number.isInteger(byte) || byte < 0 || byte > this.#bytes) throw new Misfit();
    if (!this.#indexOf) return byte;
    const index = this.#indexOf[byte];
    if (index < 0) throw new Misfit();
    return index;
  }

  /** napi's position (0-based line, UTF-16 column and index) of a byte offset. */
  position(byte: number): Position16 {
    const index = this.index(byte);
    const { line, col } = indexToPosition(this.#lineStarts ??= lineStarts(this.#text), index);
    return { line: line - 1, column: col - 1, index };
  }

  /**
   * A match (or capture) of the command line as a {@link MatchNode} over this
   * text; {@link Misfit} when its texts are not the text poly read at its offsets
   * (the file changed on disk in between).
   */
  node(range: CliRange, vars?: CliMatch["metaVariables"]): MatchNode {
    const start = this.position(range.byteOffset.start);
    const end = this.position(range.byteOffset.end);
    const text = this.#text.slice(start.index, end.index);
    const single = vars?.single ?? {};
    const multi = vars?.multi ?? {};
    const capture = (c: { text: string; range: CliRange }): MatchNode => {
      const node = this.node(c.range);
      if (node.text() !== c.text) throw new Misfit();
      return node;
    };
    return {
      text: () => text,
      range: () => ({ start, end }),
      getMatch: (name) => (Object.hasOwn(single, name) ? capture(single[name]) : null),
      getMultipleMatches: (name) => (Object.hasOwn(multi, name) ? multi[name].map(capture) : []),
    };
  }
}
