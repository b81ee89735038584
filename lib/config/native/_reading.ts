/**
 * What the native readers share in reading a file: the files of a chain of `extends` (oxlint's, markdownlint's), with
 * cycles and unreadable files named, the error for a file that does not parse (a TOML file parsed), the configuration
 * of a file poly cannot honour, and the nearest folder up that holds an engine's file. A leaf beside `_files.ts`, which
 * imports the readers' file names.
 *
 * @module
 */
import { dirname } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles, NativeText } from "./_files.ts";
import { JsoncError } from "./_jsonc.ts";
import type { NativeEngineConfig } from "./types.ts";
import { isTable } from "../table.ts";

/**
 * The text of `path`, one file of a chain of `extends` (`chain`: the files that led to it, the one naming it last): a
 * file met again is a cycle, and one that cannot be read an error naming the file that names it (`display` shows paths).
 */
export async function readExtended(
  files: NativeFiles,
  display: (path: string) => string,
  path: string,
  chain: readonly string[],
): Promise<NativeText> {
  const shown = display(path);
  if (chain.includes(path)) throw new ConfigError({ file: shown }, `"extends" forms a cycle`);
  try {
    return await files.read(path);
  } catch {
    const by = chain.at(-1);
    throw new ConfigError(
      { file: display(by ?? path) },
      by ? `"extends" names "${shown}", which cannot be read` : "cannot be read",
    );
  }
}

/** The error for a config file that does not parse (the parser's first line), or `e` itself when it names the file. */
export function parseError(e: unknown, display: string): ConfigError {
  if (e instanceof ConfigError) return e;
  if (e instanceof JsoncError) {
    return new ConfigError({ file: display, line: e.line, column: e.column }, `cannot parse: ${e.reason}`);
  }
  return new ConfigError(
    { file: display },
    `cannot parse: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`,
  );
}

/**
 * The configuration of an engine's file poly cannot honour: `error` says why ({@link NativeEngineConfig.unhonoured}),
 * and every file the engine checks under it errors saying so while the run's other files go on. `path`, the engine's
 * file when known, is listed (its hash in the configuration's) when it can be read; `root`, the folder it governs.
 */
export async function unhonouredConfig(
  files: NativeFiles,
  error: unknown,
  root: string,
  path?: string,
): Promise<NativeEngineConfig> {
  if (!(error instanceof ConfigError)) throw error;
  const file = path === undefined ? undefined : await files.read(path).catch(() => undefined);
  return { files: file ? [{ path: file.path, hash: file.hash }] : [], options: {}, root, unhonoured: error.message };
}

/** A TOML file's text as a table; one that does not parse is a ConfigError naming it with the parser's first line. */
export function parseTomlText(text: string, display: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const m = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    throw new ConfigError({ file: display }, `cannot parse TOML: ${m}`);
  }
}

/**
 * What `here` finds in `dir`, else in the nearest folder above it up to `top` where it finds something (undefined when
 * none does), memoised per folder in `memo`: a reader asked for every folder of a tree walks each folder once.
 */
export function nearestUp<T>(
  memo: Map<string, Promise<T | undefined>>,
  dir: string,
  top: string,
  here: (dir: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  let found = memo.get(dir);
  if (!found) {
    found = (async () => {
      const own = await here(dir);
      if (own !== undefined) return own;
      const up = dirname(dir);
      return dir === top || up === dir ? undefined : await nearestUp(memo, up, top, here);
    })();
    memo.set(dir, found);
  }
  return found;
}

/**
 * The `[tool.<name>]` table of a `pyproject.toml`'s text (black's, flake8-pyproject's), or undefined; a text that
 * names neither that table, a `[tool]` table nor a top-level `tool.<name> = ...` key is not parsed. Throws a
 * ConfigError naming the file (`display`) when it does not parse.
 */
export function pyprojectTool(text: string, display: string, name: string): Record<string, unknown> | undefined {
  const named = new RegExp(
    String.raw`^\s*\[\s*"?tool"?\s*\.\s*"?${name}"?\s*\]|^\s*\[\s*"?tool"?\s*\]|^\s*tool\s*\.\s*${name}\s*=`,
    "m",
  );
  if (!named.test(text)) return undefined;
  const tool = parseTomlText(text, display).tool;
  return isTable(tool) && isTable(tool[name]) ? tool[name] : undefined;
}
