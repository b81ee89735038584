/**
 * Loading a rule set: the built-in pack, then each `[rules] dirs` directory in
 * order; ids checked for uniqueness; `[rules.overrides]` applied. Problems are
 * collected, never thrown, so one bad file costs only its own rules.
 *
 * @module
 */
import { isAbsolute, join, normalize, relative, resolve } from "node:path";
import { digestOf } from "../cache/digest.ts";
import { codeIdentity, codeMemoPath, readMemoFile, writeMemoFile } from "../cache/build.ts";
import type { RulesTable } from "./config.ts";
import { safeParse } from "../config/valid.ts";
import { builtinFiles, isTestFile, type RuleFileEntry, userFiles } from "./_files.ts";
import type { ParsedFile } from "./_parse.ts";
import { applyOverrides } from "./_overrides.ts";
import type { LoadedRule, RuleLoadError, RuleOrigin, RuleSet } from "./types.ts";

/** Bumped when the meaning of a digest changes. */
const DIGEST_VERSION = "rules/3";

/** The default user rule directory (`[rules] dirs` default): silently skipped when it does not exist. */
const DEFAULT_DIR = ".poly/rules";

/** Options for {@link loadRuleSet}. */
export interface LoadRuleSetOptions {
  /** Replaces `[rules] dirs` (absolute, or relative to `configDir`): `poly rules --dir`. */
  dirs?: string[];
  /** The config file named in messages about `[rules]` (default `<configDir>/poly.toml`). */
  configFile?: string;
}

/** A loaded set, and the stat lines of the user rule files it was read from. */
interface Loaded {
  set: Promise<RuleSet>;
  /** The user rule files' stamp ({@link userStamp}), taken before they were read. */
  stamp: Promise<string>;
  /** The {@link epoch} in which the stamp was last found unchanged. */
  epoch: number;
}

const memo = new Map<string, Loaded>();
/** Bumped by {@link revalidateRuleSets}: a set loaded in an earlier epoch is checked before reuse. */
let epoch = 0;

/**
 * The rule set for a configuration directory and its `[rules]` table, loaded once
 * per distinct input and reused while its user rule files are unchanged (a
 * resident process checks them again once per run: {@link revalidateRuleSets}).
 *
 * @example
 * ```ts
 * const set = await loadRuleSet("/repo", { dirs: [".poly/rules"] });
 * for (const e of set.errors) console.error(formatLoadError(e));
 * ```
 */
export async function loadRuleSet(
  configDir: string,
  table?: unknown,
  options: LoadRuleSetOptions = {},
): Promise<RuleSet> {
  const key = JSON.stringify([configDir, table ?? null, options.dirs ?? null, options.configFile ?? null]);
  const entry = memo.get(key);
  if (entry && entry.epoch === epoch) return await entry.set;
  // In the memo before the first await: the calls made meanwhile (a run asks once per configuration, and a
  // monorepo has one per package) wait for this load rather than each making its own.
  const checked = rulesTable(table, configDir);
  // The stamp is taken before the files are read: an edit in between makes the next check reload.
  const stamp = checked.then((c) => userStamp(configDir, c.table, options));
  const set = stamp.then(async (now) =>
    entry && now === await entry.stamp.catch(() => undefined)
      ? await entry.set
      : await load(configDir, await checked, options)
  );
  const fresh: Loaded = { stamp, set, epoch };
  memo.set(key, fresh);
  return await fresh.set;
}

/**
 * Starts a new epoch: each rule set is checked against its user rule files
 * (one stat per file and directory) before its next reuse. The run pipeline
 * calls this once per run, so a resident `poly mcp` or `poly daemon` sees rule
 * files edited, added or removed between runs.
 */
export function revalidateRuleSets(): void {
  epoch++;
}

/** Forgets every loaded rule set (tests that rewrite rule files). */
export function clearRuleSetCache(): void {
  memo.clear();
}

/**
 * The stat lines (path, inode, size, mtime) of every user rule directory of a
 * set and of every rule file in them; a directory that cannot be read is a line
 * saying so. Built-in rules are part of the build and are not stamped.
 * Synchronous, like the whole load when the memo holds every file: a few small
 * calls that would otherwise each wait for a turn of a thread busy with a run.
 */
function userStamp(configDir: string, table: RulesTable, options: LoadRuleSetOptions): string {
  const lines: string[] = [];
  const line = (path: string) => {
    try {
      const info = Deno.statSync(path);
      lines.push(`${path}\0${info.ino ?? ""}\0${info.size}\0${info.mtime?.getTime() ?? ""}`);
    } catch (error) {
      lines.push(`${path}\0${errorText(error)}`);
    }
  };
  for (const d of options.dirs ?? table.dirs) {
    const dir = isAbsolute(d) ? d : resolve(configDir, d);
    line(dir);
    try {
      for (const entry of userFiles(dir)) line(entry.path);
    } catch (error) {
      lines.push(`${dir}\0${errorText(error)}`);
    }
  }
  return lines.join("\n");
}

/** A load error as `file:line:col: message`. */
export function formatLoadError(error: RuleLoadError): string {
  const where = [error.file, error.line, error.column].filter((p) => p !== undefined).join(":");
  return `${where}: ${error.message}`;
}

/**
 * Parsed rule files remembered across runs, in `<cache home>/rules/parsed-<code>.json`:
 * parsing and checking a file (YAML, schema, every pattern compiled by ast-grep)
 * costs far more than reading it, and the same files load on every run. Entries
 * are keyed by SHA-256 of the file's display name, origin and bytes; the file name
 * carries the code identity (`codeIdentity()`: poly's source files and lockfile, or
 * its executable), so another build of poly never reads them. The built-in pack,
 * part of that code, is also kept whole under the code identity: a run answered
 * from it neither lists nor reads the pack's ~140 files.
 */
export class ParseMemo {
  #entries: Record<string, ParsedFile> = {};
  #pack?: BuiltinPack;
  #dirty = false;
  #path = "";

  /** Opens the memo at `path` (default: this build's file under the cache home). */
  static async open(path?: string): Promise<ParseMemo> {
    const memo = new ParseMemo();
    memo.#path = path ?? await codeMemoPath("rules", PREFIX);
    // Absent, unreadable or damaged: everything is parsed again.
    const value = readMemoFile(memo.#path) as Partial<MemoFile> | null | undefined;
    if (value?.files && typeof value.files === "object" && !Array.isArray(value.files)) memo.#entries = value.files;
    if (value?.builtin && Array.isArray(value.builtin.files)) memo.#pack = value.builtin;
    return memo;
  }

  /** The built-in pack's files as parsed under `code` (a copy), or undefined. */
  builtinPack(code: string): PackFile[] | undefined {
    return this.#pack?.code === code ? structuredClone(this.#pack.files) : undefined;
  }

  /** Keeps the built-in pack's files as parsed under `code`. */
  rememberBuiltinPack(code: string, files: readonly PackFile[]): void {
    this.#pack = { code, files: structuredClone(files) as PackFile[] };
    this.#dirty = true;
  }

  /**
   * {@link parseRuleFile}, answered from the memo (a copy, without waiting) when
   * these bytes were parsed before.
   */
  parsed(text: string, display: string, origin: RuleOrigin): ParsedFile | Promise<ParsedFile> {
    const key = digestOf(JSON.stringify([display, origin, text]));
    const hit = this.#entries[key];
    return hit ? structuredClone(hit) : this.#parseNew(key, text, display, origin);
  }

  /** {@link ParseMemo.parsed}, always as a promise. */
  async parse(text: string, display: string, origin: RuleOrigin): Promise<ParsedFile> {
    return await this.parsed(text, display, origin);
  }

  async #parseNew(key: string, text: string, display: string, origin: RuleOrigin): Promise<ParsedFile> {
    // The parser (YAML, schemas, ast-grep to check patterns) loads only when a file is not in the memo.
    const [{ parseRuleFile }, { ensureLanguages }] = await Promise.all([
      import("./_parse.ts"),
      import("../engines/ast_grep/napi.ts"),
    ]);
    await ensureLanguages();
    // As JSON, exactly as a later run reads it back: a hit and a miss give the same shape.
    const parsed = JSON.parse(JSON.stringify(parseRuleFile(text, display, origin))) as ParsedFile;
    this.#entries[key] = structuredClone(parsed);
    this.#dirty = true;
    return parsed;
  }

  /** Writes new entries (atomically; at most {@link MEMO_ENTRIES}, newest kept); a failure only costs speed. */
  async save(): Promise<void> {
    if (!this.#dirty || !this.#path) return;
    const keys = Object.keys(this.#entries);
    const kept: MemoFile = {
      files: Object.fromEntries(keys.slice(-MEMO_ENTRIES).map((k) => [k, this.#entries[k]])),
      ...(this.#pack ? { builtin: this.#pack } : {}),
    };
    // Other builds' memos: the few most recently written stay (two checkouts or a binary and a
    // source tree sharing a cache home would otherwise delete each other's on every run).
    if (await writeMemoFile(this.#path, kept, PREFIX, OTHER_BUILDS_KEPT)) this.#dirty = false;
  }
}

/** One parsed file of the built-in pack. */
interface PackFile {
  display: string;
  parsed: ParsedFile;
}

/** The built-in pack as parsed under one code identity. */
interface BuiltinPack {
  code: string;
  files: PackFile[];
}

/** The memo file: parsed files by key, and the built-in pack. */
interface MemoFile {
  files: Record<string, ParsedFile>;
  builtin?: BuiltinPack;
}

/** The memo files' name prefix. */
const PREFIX = "parsed-";

/** Other builds' memo files kept beside this build's, newest first. */
const OTHER_BUILDS_KEPT = 3;

/** Parsed files kept in the memo (the built-in pack is ~70). */
const MEMO_ENTRIES = 2000;

let parseMemo: Promise<ParseMemo> | undefined;

/** A `[rules]` table with its defaults, and what is wrong with it (a table the schema rejects counts as the default one). */
interface CheckedTable {
  table: RulesTable;
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/**
 * The table checked against its schema through the memo (config/valid.ts). A configuration's table comes with its
 * directories resolved (run/plan.ts); they are checked as paths relative to `configDir`, which every reader of the
 * table resolves them against, so the memo knows the same table in another checkout of the repository (an absolute
 * path in its key made every first run in a new folder load zod and every schema, ~50–80 ms).
 */
async function rulesTable(raw: unknown, configDir: string): Promise<CheckedTable> {
  const parsed = await safeParse<RulesTable>("rules", relativeDirs(raw ?? {}, configDir));
  if (parsed.success) return { table: parsed.data, issues: [] };
  const defaults = await safeParse<RulesTable>("rules", {});
  if (!defaults.success) throw defaults.error; // the schema's own defaults: cannot fail
  return { table: defaults.data, issues: parsed.error.issues };
}

/** `raw` with each absolute string of its `dirs` made relative to `configDir` (anything else left for the schema to judge). */
function relativeDirs(raw: unknown, configDir: string): unknown {
  if (raw === null || typeof raw !== "object" || !Array.isArray((raw as { dirs?: unknown }).dirs)) return raw;
  const dirs = (raw as { dirs: unknown[] }).dirs.map((d) =>
    typeof d === "string" && isAbsolute(d) ? relative(configDir, d) || "." : d
  );
  return { ...raw, dirs };
}

async function load(configDir: string, checked: CheckedTable, options: LoadRuleSetOptions): Promise<RuleSet> {
  const fromConfigDir = (path: string) => relative(configDir, path).replaceAll("\\", "/") || ".";
  parseMemo ??= ParseMemo.open();
  const memo = await parseMemo;
  const configFile = options.configFile ?? join(configDir, "poly.toml");
  const errors: RuleLoadError[] = checked.issues.map((issue) => ({
    file: configFile,
    message: `[${["rules", ...issue.path.map(String)].join(".")}]: ${issue.message}`,
  }));
  const { table } = checked;
  const dirs = (options.dirs ?? table.dirs).map((d) => (isAbsolute(d) ? d : resolve(configDir, d)));

  const entries: RuleFileEntry[] = [];
  const testErrors: RuleLoadError[] = [];
  const code = await codeIdentity();
  // The built-in pack is part of poly's code: whole from the memo, or read and remembered whole.
  let pack = table.builtin ? memo.builtinPack(code) : [];
  if (!pack) {
    pack = [];
    for (const entry of builtinFiles()) {
      let text: string;
      try {
        text = Deno.readTextFileSync(entry.path);
      } catch {
        pack = undefined;
        break;
      }
      pack.push({ display: entry.display, parsed: await memo.parsed(text, entry.display, "builtin") });
    }
    if (pack) memo.rememberBuiltinPack(code, pack);
    else entries.push(...builtinFiles()); // a file of the pack cannot be read: file by file, each problem named
  }
  for (const dir of dirs) {
    try {
      entries.push(...userFiles(dir));
    } catch (error) {
      // The default directory is optional; any other configured directory must exist.
      const isDefault = !options.dirs && normalize(dir).replaceAll("\\", "/").endsWith("/" + DEFAULT_DIR);
      if (error instanceof Deno.errors.NotFound && isDefault) continue;
      errors.push({ file: dir, message: `rule directory cannot be read: ${errorText(error)}` });
    }
  }

  const rules: LoadedRule[] = [];
  const byId = new Map<string, LoadedRule>();
  const tests: RuleSet["tests"] = [];
  const hashed: string[] = [];
  const take = (parsed: ParsedFile) => {
    tests.push(...parsed.tests);
    errors.push(...parsed.errors);
    testErrors.push(...parsed.testErrors);
    for (const rule of parsed.rules) {
      const previous = byId.get(rule.id);
      if (previous) {
        errors.push({
          file: rule.file,
          line: rule.line,
          column: 1,
          message:
            `rule id "${rule.id}" is already defined in ${previous.file}:${previous.line}: ids must be unique across packs, rename one`,
        });
        continue;
      }
      byId.set(rule.id, rule);
      rules.push(rule);
    }
  };
  // The pack's bytes are the build's (the build identity is in every cache key): its names stand for them.
  for (const file of pack ?? []) {
    hashed.push(file.display, "builtin");
    take(file.parsed);
  }
  for (const entry of entries) {
    const origin = entry.display.startsWith("builtin:") ? "builtin" : "user";
    const text = readRuleFile(entry, errors, testErrors);
    if (text === undefined) continue;
    // By its path from the configuration's folder: the digest is the same in another checkout of the repository.
    hashed.push(origin === "builtin" ? entry.display : fromConfigDir(entry.display), text);
    take(await memo.parsed(text, entry.display, origin));
  }
  errors.push(...await applyOverrides(rules, table, configFile));
  await memo.save();
  // Where the configuration is goes into the cache keys with the settings (as a path relative to the repository).
  const digest = digestOf(JSON.stringify([DIGEST_VERSION, table, dirs.map(fromConfigDir), hashed]));
  return { configDir, rules, tests, errors, testErrors, dirs, digest };
}

/** A rule file's text, or undefined after naming the problem (in `testErrors` for a test file). */
function readRuleFile(entry: RuleFileEntry, errors: RuleLoadError[], testErrors: RuleLoadError[]): string | undefined {
  try {
    return Deno.readTextFileSync(entry.path);
  } catch (error) {
    (isTestFile(entry.path) ? testErrors : errors).push({
      file: entry.display,
      message: `cannot be read: ${errorText(error)}`,
    });
    return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
