/**
 * Shared checks every engine test runs: golden diagnostics for a bad fixture,
 * golden formatted text, an errored record for a syntax error, idempotent format.
 *
 * @module
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { engineById, loadEngine } from "../../lib/engines/registry.ts";
import { EngineError, type EngineSettings, type Language, type SourceFile } from "../../lib/engines/types.ts";
import { assertGolden, REPO } from "../_helpers/cli.ts";

/** Default settings as an empty poly.toml would give. */
export function defaultSettings(tool: Record<string, unknown> = {}): EngineSettings {
  return {
    defaults: { line_length: 120, line_ending: "lf", final_newline: true, trim_trailing_whitespace: true },
    tool,
  };
}

/** Reads a fixture under fixtures/engines/. */
export async function fixture(relative: string, language: Language): Promise<SourceFile> {
  const path = join(REPO, "fixtures", "engines", relative);
  return { path, relPath: basename(path), language, text: await Deno.readTextFile(path) };
}

/** The engine instance by id. */
/** A file that exists only in memory, at `/tmp/<relPath>` (an engine reads its `text`, never the disk). */
export function memoryFile(relPath: string, language: Language, text: string): SourceFile {
  return { path: `/tmp/${relPath}`, relPath, language, text };
}

export async function engine(id: string) {
  return await loadEngine(engineById(id)!);
}

/** Golden path for an engine test. */
export function golden(name: string): string {
  return join(REPO, "tests", "engines", "golden", name);
}

/** Asserts that `fn` throws an EngineError carrying a line and column. */
export async function assertSyntaxError(fn: () => unknown, line: number): Promise<void> {
  try {
    await fn();
  } catch (e) {
    assert.ok(e instanceof EngineError, `expected EngineError, got ${e}`);
    assert.equal(e.line, line);
    assert.ok(typeof e.column === "number" && e.column >= 1, "column is set");
    return;
  }
  assert.fail("expected a syntax error");
}

export { assertGolden };
