/**
 * Shared pieces of the engine tests: fixtures, default settings, golden files,
 * and the standard formatter checks (golden output, idempotence, syntax error
 * with line and column, parity with the native tool where it is installed).
 *
 * @module
 */
import assert, { equal } from "node:assert/strict";
import { basename, join } from "node:path";
import { assertGolden, REPO } from "../_helpers/cli.ts";
import { findExecutable } from "../../lib/fs/executable.ts";
import {
  EngineError,
  type EngineSettings,
  type EngineSpec,
  type Language,
  type SourceFile,
} from "../../lib/engines/types.ts";

/** Folder of the engine fixtures. */
export const FIXTURES = join(REPO, "fixtures", "engines");

/** Folder of the engine golden files. */
export const GOLDEN = join(REPO, "tests", "engines", "golden");

/** Settings as poly's defaults give them, with an optional tool table and default overrides. */
export function settings(
  tool: Record<string, unknown> = {},
  defaults: Partial<EngineSettings["defaults"]> = {},
): EngineSettings {
  return {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true, ...defaults },
    tool,
  };
}

/**
 * Settings under a repository's prettier or oxfmt options (as lib/config/native/ reads them: the file's `options`,
 * `style`), with poly's defaults beneath.
 */
export function styleSettings(
  options: Record<string, unknown>,
  tool: "prettier" | "oxfmt" = "prettier",
): EngineSettings {
  return {
    ...settings(),
    native: { files: [], options, root: FIXTURES, style: { tool, explicit: Object.keys(options) } },
  };
}

/** prettier's own output for `file` under `options` (prettier 3, with every plugin it ships). */
export async function prettierOutput(file: SourceFile, options: Record<string, unknown>): Promise<string> {
  const [prettier, ...plugins] = await Promise.all([
    import("prettier/standalone"),
    import("prettier/plugins/html"),
    import("prettier/plugins/markdown"),
    import("prettier/plugins/postcss"),
    import("prettier/plugins/babel"),
    import("prettier/plugins/estree"),
    import("prettier/plugins/typescript"),
    import("prettier/plugins/graphql"),
    import("prettier/plugins/yaml"),
  ]);
  return await prettier.format(file.text, { ...options, filepath: file.path, plugins });
}

/**
 * Asserts that `engine` formats `file` under a repository's prettier (or oxfmt) `options` as prettier itself formats
 * it under `expected` (the same options, where oxfmt's defaults do not differ), and — unless `same` — otherwise than
 * under poly's defaults (so the options are what made the difference).
 */
export async function assertPrettierOutput(
  engine: EngineSpec,
  file: SourceFile,
  options: Record<string, unknown>,
  { tool = "prettier", expected = options, same = false }: {
    tool?: "prettier" | "oxfmt";
    expected?: Record<string, unknown>;
    same?: boolean;
  } = {},
): Promise<void> {
  const instance = await engine.load();
  const out = await instance.format!(file, styleSettings(options, tool));
  equal(out, await prettierOutput(file, expected), file.relPath);
  if (!same) equal(out === await instance.format!(file, settings()), false, file.relPath);
}

/** A fixture as a SourceFile (`relative` is under fixtures/engines/). */
export async function fixture(relative: string, language: Language): Promise<SourceFile> {
  const path = join(FIXTURES, relative);
  return { path, relPath: basename(path), language, text: await Deno.readTextFile(path) };
}

/** Diagnostics as the golden JSON stores them. */
export function diagnosticsJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Runs `fn` and returns the EngineError it throws (fails if it throws anything else or nothing). */
export async function engineError(fn: () => unknown): Promise<EngineError> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof EngineError)) throw new Error(`expected an EngineError, got ${e}`);
    return e;
  }
  throw new Error("expected an EngineError, but the call succeeded");
}

const toolCache = new Map<string, Promise<string | undefined>>();

/** Path of a native tool on PATH, or undefined (memoized). */
export function tool(name: string): Promise<string | undefined> {
  let p = toolCache.get(name);
  if (!p) toolCache.set(name, p = Promise.resolve(findExecutable(name)));
  return p;
}

/** Whether a test needing `name` must be skipped; prints the visible reason when so. */
export async function missing(name: string, test: string): Promise<boolean> {
  const found = await tool(name);
  if (!found) console.log(`SKIPPED ${test}: ${name} is not installed (not on PATH)`);
  return !found;
}

/** Runs a native program with `stdin` and returns its stdout (throws on a non-zero exit). */
export async function native(program: string, args: string[], stdin: string): Promise<string> {
  const child = new Deno.Command(program, { args, stdin: "piped", stdout: "piped", stderr: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const err = new TextDecoder().decode(out.stderr);
  if (out.code !== 0) throw new Error(`${program} exited ${out.code}: ${err}`);
  return new TextDecoder().decode(out.stdout);
}

/** One formatter case: a fixture, its language, and where the golden output lives. */
export interface FormatCase {
  fixture: string;
  language: Language;
  settings?: EngineSettings;
}

/** Registers "<id> format() matches the golden output for X" and "<id> format() is idempotent on X". */
export function formatGoldenTests(spec: EngineSpec, cases: FormatCase[]): void {
  for (const c of cases) {
    const name = basename(c.fixture);
    Deno.test(`${spec.id} format() matches the golden output for ${name}`, async () => {
      const engine = await spec.load();
      const file = await fixture(c.fixture, c.language);
      const out = await engine.format!(file, c.settings ?? settings());
      assert(out !== file.text, "the fixture should need formatting");
      await assertGolden(join(GOLDEN, spec.id, `${name}.golden`), out);
    });
    Deno.test(`${spec.id} format() is idempotent on ${name}`, async () => {
      const engine = await spec.load();
      const file = await fixture(c.fixture, c.language);
      const once = await engine.format!(file, c.settings ?? settings());
      const twice = await engine.format!({ ...file, text: once }, c.settings ?? settings());
      equal(twice, once);
    });
  }
}

/** Registers "<id> format() throws EngineError with line and column on a syntax error". */
export function formatSyntaxErrorTest(spec: EngineSpec, c: FormatCase, at: { line: number; column: number }): void {
  Deno.test(`${spec.id} format() throws EngineError with line and column on a syntax error`, async () => {
    const engine = await spec.load();
    const file = await fixture(c.fixture, c.language);
    const error = await engineError(() => engine.format!(file, c.settings ?? settings()));
    equal(error.line, at.line, error.message);
    equal(error.column, at.column, error.message);
  });
}

/**
 * Registers "<id> format(): a crash is the file's alone": `crashing` sends the engine's WebAssembly build out of its
 * memory's bounds (twice, in two instances); `plain` formatted after it gives `formatted`, where before every later
 * file failed the same way.
 */
export function formatCrashTest(
  spec: EngineSpec,
  language: Language,
  crashing: string,
  plain: string,
  formatted: string,
): void {
  Deno.test(`${spec.id} format(): a crash is the file's alone, the next file gets a new instance`, async () => {
    const engine = await spec.load();
    const ext = { go: "go", shell: "sh", lua: "lua", html: "html", cpp: "cc" }[language as string] ?? language;
    const file = (name: string, text: string) => ({
      path: `/x/${name}.${ext}`,
      relPath: `${name}.${ext}`,
      language,
      text,
    });
    const error = await engineError(() => engine.format!(file("a", crashing), settings()));
    equal(/crashed on this file twice \(memory access out of bounds/.test(error.message), true, error.message);
    equal(await engine.format!(file("b", plain), settings()), formatted);
  });
}
