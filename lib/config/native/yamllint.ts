/**
 * yamllint's configuration, found as yamllint finds it from where it runs: the nearest `.yamllint`, `.yamllint.yaml`
 * or `.yamllint.yml` from the file's folder up to the repository root. Its rules are resolved as yamllint resolves
 * them: `extends` (`default`, `relaxed`, or a file relative to this one) first, then each rule of the file over the
 * base's — a mapping updating the base rule's mapping, `enable` / `disable` replacing it — each enabled rule's options
 * over the rule's own defaults. A file without `extends` has only the rules it names.
 *
 * poly does not run yamllint; it reads the layout yamllint checks, where prettier formats YAML by poly's defaults
 * (lib/run/plan.ts, {@link yamlLayout}): prettier's YAML layout that a repository's yamllint rejects is no formatting
 * of the repository's (geerlingguy/ansible-role-docker: `poly fmt --fix` wrote one space before each inline comment,
 * 7 `comments` findings; kubernetes-sigs/kubespray: 61 `indentation` errors).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { ConfigError } from "../../errors/mod.ts";
import type { NativeFiles } from "./_files.ts";
import { nearestUp, parseError, readExtended } from "./_reading.ts";
import { isTable, type Table } from "../table.ts";
import type { NativeEngineConfig, NativeSource } from "./types.ts";

/** The names yamllint looks for in a folder, in its order. */
export const YAMLLINT_FILES = [".yamllint", ".yamllint.yaml", ".yamllint.yml"];

/** The options of the rules whose layout prettier writes, as each rule's `DEFAULT` has them (yamllint 1.35). */
const RULE_DEFAULTS: Readonly<Record<string, Table>> = {
  braces: { "min-spaces-inside": 0, "max-spaces-inside": 0 },
  brackets: { "min-spaces-inside": 0, "max-spaces-inside": 0 },
  comments: { "require-starting-space": true, "min-spaces-from-content": 2 },
  indentation: { spaces: "consistent", "indent-sequences": true },
  "line-length": { max: 80 },
  "quoted-strings": { "quote-type": "any" },
};

/** yamllint's own `default` configuration, those rules of it (`false`: disabled). */
const DEFAULT: Readonly<Record<string, Table | false>> = {
  braces: {},
  brackets: {},
  comments: { level: "warning" },
  indentation: {},
  "line-length": {},
  "quoted-strings": false,
};

/** yamllint's `relaxed` configuration, over `default`. */
const RELAXED: Readonly<Record<string, Table | false | string>> = {
  braces: { level: "warning", "max-spaces-inside": 1 },
  brackets: { level: "warning", "max-spaces-inside": 1 },
  comments: "disable",
  indentation: { level: "warning", "indent-sequences": "consistent" },
  "line-length": { level: "warning" },
};

type Rules = Record<string, Table | false>;

/** `rules` of one file over `base`, as yamllint's `YamlLintConfig.extend` merges them. */
function extend(base: Rules, rules: Table): Rules {
  const out: Rules = { ...base };
  for (const [name, value] of Object.entries(rules)) {
    const own: Table | false = value === "disable" || value === false ? false : isTable(value) ? value : {};
    const under = out[name];
    // `enable` keeps the base rule's options, as an empty mapping does.
    out[name] = own !== false && under ? { ...under, ...own } : own;
  }
  return out;
}

/** Reads yamllint's configuration for each folder. */
export class YamllintReader {
  readonly #nearest = new Map<string, Promise<NativeEngineConfig | undefined>>();

  constructor(private readonly files: NativeFiles, private readonly display: (path: string) => string) {}

  /** The configuration governing `dir` (bounded by `top`): `options.rules`, each rule's options or `false`. */
  forDir(dir: string, top: string): Promise<NativeEngineConfig | undefined> {
    return nearestUp(this.#nearest, dir, top, async (d) => {
      const names = await this.files.namesIn(d);
      const name = YAMLLINT_FILES.find((n) => names.has(n));
      if (!name) return undefined;
      const sources: NativeSource[] = [];
      const rules = await this.#load(join(d, name), sources, []);
      return { files: sources, options: { rules }, root: d };
    });
  }

  /**
   * The rules of the file at `path` with its `extends` chain (`chain`: the files extending it, a cycle an error); each
   * file read is added to `sources`.
   */
  async #load(path: string, sources: NativeSource[], chain: readonly string[]): Promise<Rules> {
    const shown = this.display(path);
    const file = await readExtended(this.files, this.display, path, chain);
    sources.push({ path: file.path, hash: file.hash });
    let doc: unknown;
    try {
      doc = (await import("js-yaml")).load(file.text, { json: true }) ?? {};
    } catch (e) {
      throw parseError(e, shown);
    }
    if (!isTable(doc)) throw new ConfigError({ file: shown }, "a yamllint configuration must be a mapping");
    const rules = doc.rules ?? {};
    if (!isTable(rules)) throw new ConfigError({ file: shown }, "`rules` must be a mapping");
    const base = doc.extends;
    let under: Rules = {};
    if (base === "default") under = { ...DEFAULT };
    else if (base === "relaxed") under = extend({ ...DEFAULT }, RELAXED as Table);
    else if (typeof base === "string") under = await this.#load(join(dirname(path), base), sources, [...chain, path]);
    else if (base !== undefined) throw new ConfigError({ file: shown }, "`extends` must be a name or a path");
    return extend(under, rules);
  }
}

/** What a yamllint configuration asks of prettier's YAML ({@link yamlLayout}). */
export interface YamlLayout {
  /** poly's settings that write it: `line_length`, `indent_width`, `single_quote`, `bracket_spacing`. */
  prettier: Table;
  /** The rules and options prettier cannot write (`comments min-spaces-from-content 2`). */
  cannot: string[];
}

/**
 * What the rules of a yamllint configuration (`options.rules`, {@link YamllintReader}) ask of the layout prettier
 * writes: its width (`line-length` `max`; none where the rule is off), indent (`indentation` `spaces`), quotes (`quoted-strings` `quote-type`) and
 * the spaces inside a flow mapping's braces (`braces`), which prettier's options give; two spaces or more before an
 * inline comment (`comments` `min-spaces-from-content`, 2 under `default`), sequences not indented under their key
 * (`indentation` `indent-sequences: false`) and spaces inside a flow sequence's brackets, which prettier cannot write.
 */
export function yamlLayout(options: Table): YamlLayout {
  const rules = (options.rules ?? {}) as Rules;
  const on = (name: string): Table | undefined => {
    const own = rules[name];
    return own ? { ...RULE_DEFAULTS[name], ...own } : undefined;
  };
  const prettier: Table = {};
  const cannot: string[] = [];
  const comments = on("comments");
  const before = comments?.["min-spaces-from-content"];
  if (typeof before === "number" && before > 1) cannot.push(`comments min-spaces-from-content ${before}`);
  const indentation = on("indentation");
  if (indentation?.["indent-sequences"] === false) cannot.push("indentation indent-sequences false");
  if (typeof indentation?.spaces === "number") prettier.indent_width = indentation.spaces;
  const brackets = on("brackets");
  const inBrackets = brackets?.["min-spaces-inside"];
  if (typeof inBrackets === "number" && inBrackets > 0) cannot.push(`brackets min-spaces-inside ${inBrackets}`);
  const braces = on("braces");
  if (braces) {
    const min = Number(braces["min-spaces-inside"]);
    const max = Number(braces["max-spaces-inside"]);
    if (min > 1 || max < min) cannot.push(`braces min-spaces-inside ${min}`);
    else if (max === 0) prettier.bracket_spacing = false;
    else if (min === 1) prettier.bracket_spacing = true;
  }
  // Without a width to keep, prettier breaks no line (a long flow mapping broken over lines fails `indentation`:
  // kubespray's `- { role: ..., when: ... }`), as under `.editorconfig`'s `max_line_length = off`.
  const length = on("line-length");
  prettier.line_length = typeof length?.max === "number" ? length.max : 320;
  const quotes = on("quoted-strings")?.["quote-type"];
  if (quotes === "single") prettier.single_quote = true;
  else if (quotes === "double") prettier.single_quote = false;
  return { prettier, cannot };
}
