/**
 * The Python formatters poly does not run, found as they find their configuration: yapf's `.style.yapf`, a
 * `setup.cfg` with a `[yapf]` section or a `pyproject.toml` with a `[tool.yapf]` table (yapf's
 * `GetDefaultStyleForDir`: from the file's folder up, the first folder holding one), and pyink's `[tool.pyink]` (Google's
 * fork of black, two-space indents). A repository formatting its Python with one of them keeps its style with it, so
 * ruff's or black's layout would rewrite code it keeps on purpose: lib/run/plan.ts leaves its Python unformatted,
 * saying so, unless poly.toml names the formatter (`[fmt.python.ruff]`). The user-level `~/.config/yapf/style` is not
 * read (results must not depend on files outside the repository and the cache key).
 *
 * @module
 */
import { join } from "node:path";
import type { NativeFiles, NativeText } from "./_files.ts";
import { nearestUp } from "./_reading.ts";
import type { NativeEngineConfig } from "./types.ts";

/** yapf's own style file. */
export const YAPF_FILE = ".style.yapf";

/** A `setup.cfg`'s `[yapf]` section header. */
const YAPF_SECTION = /^[ \t]*\[yapf\][ \t]*(?:[#;].*)?$/m;

/** A `pyproject.toml`'s `[tool.yapf]` or `[tool.pyink]` table header. */
const TOOL_TABLE = /^[ \t]*\[[ \t]*"?tool"?[ \t]*\.[ \t]*"?(yapf|pyink)"?[ \t]*\][ \t]*(?:#.*)?$/m;

/** Reads which Python formatter poly does not run keeps a folder's Python style. */
export class PythonStyleReader {
  readonly #memo = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles) {}

  /** The formatter keeping `dir`'s Python style (bounded by `top`): `keptBy` says which and where, or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#memo, dir, top, (d) => this.#here(d));
  }

  async #here(dir: string): Promise<NativeEngineConfig | undefined> {
    const names = await this.files.namesIn(dir);
    if (names.has(YAPF_FILE)) return kept(await this.files.read(join(dir, YAPF_FILE)), `yapf (${YAPF_FILE})`);
    if (names.has("setup.cfg")) {
      const f = await this.files.read(join(dir, "setup.cfg"));
      if (YAPF_SECTION.test(f.text)) return kept(f, "yapf ([yapf] in setup.cfg)");
    }
    if (names.has("pyproject.toml")) {
      const f = await this.files.read(join(dir, "pyproject.toml"));
      const tool = TOOL_TABLE.exec(f.text)?.[1];
      if (tool) return kept(f, `${tool} ([tool.${tool}] in pyproject.toml)`);
    }
    return undefined;
  }
}

/** The configuration naming the tool: no options of poly's engines (`ignoreOnly`). */
function kept(f: NativeText, keptBy: string): NativeEngineConfig {
  return { files: [{ path: f.path, hash: f.hash }], options: {}, root: join(f.path, ".."), keptBy, ignoreOnly: true };
}
