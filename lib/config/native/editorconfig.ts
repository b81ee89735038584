/**
 * `.editorconfig` (https://spec.editorconfig.org) for the formatters that have
 * no configuration of their own in poly (dprint, clang-format, StyLua,
 * Mago, sqlformat, and biome, web_fmt and prettier where no file of biome's own,
 * prettier's or oxfmt's governs them; not gofmt, which has one format): the files from a
 * directory up to the nearest `root = true` (or the repository root) govern it,
 * and each file's properties are the sections matching its path, farthest file
 * first, later sections winning. They map onto poly's `[defaults]` for that file:
 *
 * | property | poly |
 * | --- | --- |
 * | `indent_size` (or `tab_width` when it is `tab`) | `indent_width` |
 * | `max_line_length` | `line_length` (`off`: unchanged) |
 * | `end_of_line` (`lf`, `crlf`) | `line_ending` |
 * | `insert_final_newline` | `final_newline` |
 * | `indent_style = tab` | the formatter's own tab switch (clang-format, StyLua, Mago, dprint TOML, biome) |
 *
 * A property poly cannot honour for a formatted file (`end_of_line = cr`,
 * `indent_style = tab` for a formatter without tabs) is a {@link ConfigError}
 * naming the file and key. shfmt reads the files its own way
 * ({@link shfmtEditorconfig}). Globs: a section without `/` matches the base name
 * at any depth; with `/`, the path relative to the file's directory; `*`, `**`,
 * `?`, `[...]`, `{a,b}` and `{1..3}` as the specification says (picomatch).
 *
 * @module
 */
import { dirname, join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import type { NativeEngineConfig } from "./types.ts";

/** One section of one `.editorconfig`. */
export interface EditorconfigSection {
  /** Directory of the `.editorconfig` it is in. */
  dir: string;
  /** Its display path (for messages). */
  file: string;
  glob: string;
  props: Record<string, string>;
}

/** Parses one `.editorconfig` text: `root`, and its sections in order. */
export function parseEditorconfig(
  text: string,
  dir: string,
  file: string,
): { root: boolean; sections: EditorconfigSection[] } {
  let root = false;
  const sections: EditorconfigSection[] = [];
  let current: EditorconfigSection | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[(.*)\]$/.exec(line);
    if (head) {
      current = { dir, file, glob: head[1], props: {} };
      sections.push(current);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    const value = line.slice(eq + 1).trim().replace(/\s+[#;].*$/, "");
    if (current) current.props[key] = value.toLowerCase();
    else if (key === "root") root = value.toLowerCase() === "true";
  }
  return { root, sections };
}

const matchers = new Map<string, (path: string) => boolean>();

function matcher(glob: string): (path: string) => boolean {
  let m = matchers.get(glob);
  if (!m) {
    // editorconfig's `**` matches any characters, `/` included, even inside a path segment (`lib/**.sh`).
    const spec = glob.replace(/\*\*(?=[^/])/g, "**/*");
    const pattern = glob.includes("/") ? spec.replace(/^\//, "") : `**/${spec}`;
    m = picomatch(pattern, { dot: true }) as (path: string) => boolean;
    matchers.set(glob, m);
  }
  return m;
}

/** The reader of `.editorconfig` files for a run. */
export class EditorconfigReader {
  readonly #chains = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** The `.editorconfig` files governing `dir` (farthest first) with their sections, or undefined. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    let found = this.#chains.get(dir);
    if (!found) {
      found = (async () => {
        const up = dirname(dir);
        const parent = dir === top || up === dir ? undefined : this.forDir(up, top);
        const names = await this.files.namesIn(dir);
        if (!names.has(".editorconfig")) return await parent;
        const path = join(dir, ".editorconfig");
        const file = await this.files.read(path);
        const parsed = parseEditorconfig(file.text, dir, this.display(path));
        const own: NativeEngineConfig = {
          files: [{ path, hash: file.hash }],
          options: { sections: parsed.sections },
          root: dir,
        };
        const above = parsed.root ? undefined : await parent;
        if (!above) return own;
        return {
          files: [...above.files, ...own.files],
          options: { sections: [...(above.options.sections as EditorconfigSection[]), ...parsed.sections] },
          root: dir,
        };
      })();
      this.#chains.set(dir, found);
    }
    return found;
  }
}

/** The properties of `absPath` under a chain of `.editorconfig` sections, each with the file that set it. */
export function editorconfigProps(
  native: NativeEngineConfig,
  absPath: string,
): Record<string, { value: string; file: string }> {
  const out: Record<string, { value: string; file: string }> = {};
  for (const s of native.options.sections as EditorconfigSection[]) {
    const rel = relative(s.dir, absPath).split(sep).join("/");
    if (rel.startsWith("..") || !matcher(s.glob)(rel)) continue;
    for (const [k, v] of Object.entries(s.props)) out[k] = { value: v, file: s.file };
  }
  return out;
}

/**
 * What shfmt itself takes from a file's `.editorconfig` (mvdan/sh's `cmd/shfmt`, `propsOptions`), as poly's
 * `[fmt.shell.shfmt]` keys: shfmt reads its own properties and none of poly's `[defaults]` mapping.
 *
 * - `indent_style = space` indents with `indent_size` spaces (8 when it is not a number); any other
 *   `indent_style` (or none, once `indent_size` is set) with tabs;
 * - `binary_next_line`, `switch_case_indent`, `space_redirects`, `function_next_line`, `simplify`, `minify`
 *   (which implies `simplify`) when `true`; `shell_variant` (`bash`, `posix`, `sh`, `mksh`, `bats`, `zsh`, `auto`);
 * - `[[shell]]` sections apply to every shell file, `[[bash]]` ones to the files shfmt reads as bash or bats
 *   (`languages`), in file order with the glob sections;
 * - `keep_padding = true` has no counterpart in the WebAssembly build: `keepPadding` names the file that set it;
 * - `end_of_line`, `insert_final_newline` and `max_line_length` are not shfmt's: they change nothing.
 */
export interface ShfmtProps {
  tool: Record<string, unknown>;
  keepPadding?: string;
}

const SHFMT_FLAGS: Record<string, string> = {
  binary_next_line: "binary_next_line",
  switch_case_indent: "switch_case_indent",
  space_redirects: "space_redirects",
  function_next_line: "func_next_line",
  simplify: "simplify",
  minify: "minify",
};

const SHELL_VARIANTS = new Set(["bash", "posix", "sh", "mksh", "bats", "zsh", "auto"]);

/** Whether a section is one of shfmt's language sections (`[[shell]]`, `[[bash]]`): its language, or undefined. */
function sectionLanguage(glob: string): string | undefined {
  return glob.length > 2 && glob.startsWith("[") && glob.endsWith("]") ? glob.slice(1, -1) : undefined;
}

/** The properties of `absPath` as shfmt's EditorConfig reader finds them: language sections for `languages` too. */
function shfmtProps(
  native: NativeEngineConfig,
  absPath: string,
  languages: readonly string[],
): Record<string, { value: string; file: string }> {
  const out: Record<string, { value: string; file: string }> = {};
  for (const s of native.options.sections as EditorconfigSection[]) {
    const rel = relative(s.dir, absPath).split(sep).join("/");
    if (rel === "" || rel.startsWith("..")) continue;
    const language = sectionLanguage(s.glob);
    if (language === undefined ? !matcher(s.glob)(rel) : !languages.includes(language)) continue;
    for (const [k, v] of Object.entries(s.props)) out[k] = { value: v, file: s.file };
  }
  return out;
}

/** shfmt's options for `absPath` (see {@link ShfmtProps}), for a file shfmt reads in one of `languages`. */
export function shfmtEditorconfig(
  native: NativeEngineConfig,
  absPath: string,
  languages: readonly string[],
): ShfmtProps {
  const props = shfmtProps(native, absPath, languages);
  const tool: Record<string, unknown> = {};
  if (props.indent_style || props.indent_size) {
    const size = props.indent_size && /^\d+$/.test(props.indent_size.value) ? Number(props.indent_size.value) : 0;
    tool.indent = props.indent_style?.value === "space" ? (size > 0 ? size : 8) : 0;
  }
  for (const [key, flag] of Object.entries(SHFMT_FLAGS)) {
    if (props[key]?.value === "true") tool[flag] = true;
  }
  if (tool.minify) tool.simplify = true;
  const variant = props.shell_variant?.value;
  if (variant && SHELL_VARIANTS.has(variant)) tool.shell_variant = variant;
  return { tool, ...(props.keep_padding?.value === "true" ? { keepPadding: props.keep_padding.file } : {}) };
}

/**
 * The `.editorconfig` whose `ignore = true` keeps `absPath` from shfmt — set on the file or on a folder above it,
 * below the farthest `.editorconfig` of the chain, as shfmt's walk skips them — or undefined.
 */
export function shfmtIgnoredBy(native: NativeEngineConfig, absPath: string): string | undefined {
  const sections = native.options.sections as EditorconfigSection[];
  const top = sections[0]?.dir;
  if (top === undefined) return undefined;
  for (let p = absPath; p !== top && relative(top, p) && !relative(top, p).startsWith(".."); p = dirname(p)) {
    const ignore = shfmtProps(native, p, ["shell"]).ignore;
    if (ignore?.value === "true") return ignore.file;
  }
  return undefined;
}

const STYLUA_EC_CHOICES: Record<string, [option: string, values: Record<string, string>]> = {
  call_parentheses: ["call_parentheses", {
    always: "Always",
    nosinglestring: "NoSingleString",
    nosingletable: "NoSingleTable",
    none: "None",
    input: "Input",
  }],
  space_after_function_names: ["space_after_function_names", {
    always: "Always",
    definitions: "Definitions",
    calls: "Calls",
    never: "Never",
  }],
  collapse_simple_statement: ["collapse_simple_statement", {
    never: "Never",
    functiononly: "FunctionOnly",
    conditionalonly: "ConditionalOnly",
    always: "Always",
  }],
  stylua_block_newline_gaps: ["block_newline_gaps", { never: "Never", preserve: "Preserve" }],
  quote_type: ["quote_style", { double: "AutoPreferDouble", single: "AutoPreferSingle" }],
};

/**
 * What StyLua 2 takes from a file's `.editorconfig` where no `stylua.toml` governs it (StyLua's `editorconfig.rs`), as
 * the options of poly's StyLua build: `indent_style`, `indent_size` (`tab`: `tab_width`), `max_line_length` (`off`:
 * no limit), `end_of_line` (`crlf`, else `lf`), `quote_type` (`double`, `single`; `auto` changes nothing),
 * `call_parentheses`, `space_after_function_names`, `collapse_simple_statement`, `sort_requires`,
 * `stylua_block_newline_gaps` (their values in lower case) and `stylua_syntax`; a value StyLua does not know changes
 * nothing, as in StyLua. `insert_final_newline` is not StyLua's. `unhonoured`: a `stylua_syntax` poly's build cannot
 * parse (Luau, LuaJIT, CfxLua), with the file that set it.
 */
export function styluaEditorconfig(
  props: Record<string, { value: string; file: string }>,
): { tool: Record<string, unknown>; unhonoured?: string } {
  const tool: Record<string, unknown> = {};
  const eol = props.end_of_line?.value;
  if (eol === "lf" || eol === "cr" || eol === "crlf") tool.line_ending = eol === "crlf" ? "crlf" : "lf";
  const size = props.indent_size?.value ?? (props.indent_style?.value === "tab" ? "tab" : undefined);
  const width = size === "tab" ? props.tab_width?.value : size;
  if (width && /^\d+$/.test(width)) tool.indent_width = Number(width);
  const style = props.indent_style?.value;
  if (style === "tab" || style === "space") tool.indent_style = style;
  const max = props.max_line_length?.value;
  if (max === "off") tool.line_width = 65535;
  else if (max && /^\d+$/.test(max)) tool.line_width = Math.min(Number(max), 65535);
  for (const [key, [option, values]] of Object.entries(STYLUA_EC_CHOICES)) {
    const v = props[key]?.value;
    if (v !== undefined && v in values) tool[option] = values[v];
  }
  const sort = props.sort_requires?.value;
  if (sort === "true" || sort === "false") tool.sort_requires = sort === "true";
  const syntax = props.stylua_syntax;
  if (syntax && ["luau", "cfxlua"].includes(syntax.value)) {
    return {
      tool,
      unhonoured: `${syntax.file}: stylua_syntax = ${syntax.value} cannot be honoured: poly's StyLua build parses ` +
        "Lua 5.1 to 5.4 and LuaJIT only",
    };
  }
  return { tool };
}

/** What the properties change in poly's `[defaults]`, and whether they ask for tabs. */
export interface EditorconfigDefaults {
  indent_width?: number;
  line_length?: number;
  line_ending?: "lf" | "crlf";
  final_newline?: boolean;
  /** `indent_style = tab`, with the file that said it. */
  tabs?: string;
}

/** Maps a file's properties onto `[defaults]` keys (see the module doc). */
export function editorconfigDefaults(props: Record<string, { value: string; file: string }>): EditorconfigDefaults {
  const out: EditorconfigDefaults = {};
  const size = props.indent_size?.value === "tab" ? props.tab_width : props.indent_size ?? props.tab_width;
  if (size && /^\d+$/.test(size.value)) out.indent_width = Number(size.value);
  const max = props.max_line_length;
  if (max && /^\d+$/.test(max.value)) out.line_length = Number(max.value);
  const eol = props.end_of_line;
  if (eol) {
    if (eol.value === "lf" || eol.value === "crlf") out.line_ending = eol.value;
    else if (eol.value !== "unset") {
      throw new ConfigError({ file: eol.file }, `end_of_line = "${eol.value}" cannot be honoured by poly (lf or crlf)`);
    }
  }
  const nl = props.insert_final_newline;
  if (nl && (nl.value === "true" || nl.value === "false")) out.final_newline = nl.value === "true";
  if (props.indent_style?.value === "tab") out.tabs = props.indent_style.file;
  return out;
}
