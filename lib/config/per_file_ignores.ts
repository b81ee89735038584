/**
 * `[per-file-ignores]` compiled once into one matcher, so a file costs a few map
 * look-ups and regular-expression tests however long the table is (a table of
 * 100,000 globs is linear to build and cheap per file; testing each glob per
 * file, compiling it each time, never finished).
 *
 * A glob means what picomatch's `isMatch(rel, glob, {dot: true, matchBase})`
 * means, `rel` being the file's path relative to the entry's base and `glob` the
 * pattern without a leading `/`; `matchBase` holds for a pattern without `/`
 * (it then matches the file's name at any depth). The compiled form keeps that:
 *
 * - every glob matches a path equal to it (picomatch's own shortcut);
 * - a glob of plain names (no glob syntax) matches only that path, or with
 *   `matchBase` that file name: a map look-up;
 * - any other glob is picomatch's regular expression, filed under the plain
 *   directories it starts with (`src/pkg/**` under `src/pkg`: only paths below
 *   it are tested) and joined with the globs of the same directory and codes
 *   into one expression.
 *
 * @module
 */
import picomatch from "picomatch";
import { sep } from "node:path";
import type { PerFileIgnore } from "./types.ts";

/** A name picomatch reads as itself: no glob syntax, not `.` or `..`. */
const PLAIN_NAME = /^(?!\.\.?$)[\w.-]+$/;

/** Regular expressions joined into one, at most this many (V8 copes with far more; this keeps each small). */
const CHUNK = 1000;

/** Globs that silence the same codes, joined (compiled when a file first needs them). */
interface Joined {
  codes: readonly string[];
  globs: string[];
  compiled?: RegExp[];
}

/** The entries of one base directory, compiled. */
interface BaseTable {
  /** Absolute base directory with a trailing separator. */
  prefix: string;
  /** `\0` and a file name → the codes of plain `matchBase` globs (a name at any depth). */
  exact: Map<string, string[][]>;
  /** Any glob → its codes, for picomatch's `rel === glob` shortcut. */
  verbatim: Map<string, string[][]>;
  /** Plain leading directories (`""`: none) → regex globs below them, tested on the relative path. */
  byDir: Map<string, Map<string, Joined>>;
  /** `matchBase` regex globs, tested on the file name. */
  byName: Map<string, Joined>;
}

/** `[per-file-ignores]` entries compiled into one matcher (see the module doc). */
export class PerFileIgnoreMatcher {
  readonly #tables: BaseTable[] = [];

  constructor(entries: readonly PerFileIgnore[]) {
    const byBase = new Map<string, BaseTable>();
    for (const entry of entries) {
      let table = byBase.get(entry.base);
      if (!table) {
        const prefix = entry.base.endsWith(sep) ? entry.base : entry.base + sep;
        table = { prefix, exact: new Map(), verbatim: new Map(), byDir: new Map(), byName: new Map() };
        byBase.set(entry.base, table);
        this.#tables.push(table);
      }
      add(table, entry);
    }
  }

  /** The codes silenced for the file at absolute path `path` (each once, in no particular order). */
  codes(path: string): string[] {
    const out = new Set<string>();
    const take = (lists: readonly (readonly string[])[] | undefined) => {
      for (const list of lists ?? []) for (const code of list) out.add(code);
    };
    for (const table of this.#tables) {
      if (path.length <= table.prefix.length || !path.startsWith(table.prefix)) continue;
      const rel = sep === "/" ? path.slice(table.prefix.length) : path.slice(table.prefix.length).split(sep).join("/");
      const name = rel.slice(rel.lastIndexOf("/") + 1);
      take(table.verbatim.get(rel));
      if (name !== rel) take(table.exact.get(`\0${name}`));
      for (const joined of table.byName.values()) if (test(joined, name)) take([joined.codes]);
      // The directories `rel` lies below (and `rel` itself: `src/**` matches `src`).
      for (let end = 0; end !== -1; end = rel.indexOf("/", end + 1)) {
        const groups = table.byDir.get(rel.slice(0, end));
        for (const joined of groups?.values() ?? []) if (test(joined, rel)) take([joined.codes]);
      }
      const groups = table.byDir.get(rel);
      for (const joined of groups?.values() ?? []) if (test(joined, rel)) take([joined.codes]);
    }
    return [...out];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Files one entry in its base's table. */
function add(table: BaseTable, entry: PerFileIgnore): void {
  const glob = entry.pattern.replace(/^\//, "");
  if (glob === "") return; // picomatch refuses an empty glob: it matches nothing
  const matchBase = !entry.pattern.includes("/");
  const codes = entry.codes;
  push(table.verbatim, glob, codes);
  const segments = glob.split("/");
  if (segments.every((s) => PLAIN_NAME.test(s))) {
    // Only equal to itself (a file name at any depth, with matchBase): the verbatim entry covers a path.
    if (matchBase) push(table.exact, `\0${glob}`, codes);
    return;
  }
  const key = codes.length === 1 ? codes[0] : JSON.stringify(codes);
  let groups: Map<string, Joined>;
  if (matchBase) groups = table.byName;
  else {
    let plain = 0;
    while (plain < segments.length - 1 && PLAIN_NAME.test(segments[plain])) plain++;
    const dir = segments.slice(0, plain).join("/");
    groups = table.byDir.get(dir) ?? new Map();
    table.byDir.set(dir, groups);
  }
  const joined = groups.get(key);
  if (joined) joined.globs.push(glob);
  else groups.set(key, { codes, globs: [glob] });
}

/** Whether any of `joined`'s globs matches `text` (their expressions joined on first use). */
function test(joined: Joined, text: string): boolean {
  if (text === "") return false;
  joined.compiled ??= compile(joined.globs);
  return joined.compiled.some((re) => re.test(text));
}

/** picomatch's expressions of `globs`, joined by flags into a few. */
function compile(globs: readonly string[]): RegExp[] {
  const byFlags = new Map<string, string[]>();
  for (const glob of globs) {
    const re = picomatch.makeRe(glob, { dot: true });
    const list = byFlags.get(re.flags);
    if (list) list.push(re.source);
    else byFlags.set(re.flags, [re.source]);
  }
  return [...byFlags].flatMap(([flags, sources]) =>
    chunks(sources).map((part) =>
      new RegExp(part.length === 1 ? part[0] : part.map((s) => `(?:${s})`).join("|"), flags)
    )
  );
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const matchers = new WeakMap<readonly PerFileIgnore[], PerFileIgnoreMatcher>();

/**
 * The codes `[per-file-ignores]` silences for the file at absolute path `path`
 * (the matcher is compiled once per entry list).
 */
export function perFileIgnoredCodes(entries: readonly PerFileIgnore[], path: string): string[] {
  if (entries.length === 0) return [];
  let matcher = matchers.get(entries);
  if (!matcher) matchers.set(entries, matcher = new PerFileIgnoreMatcher(entries));
  return matcher.codes(path);
}
