/**
 * INI files as Python's `configparser.RawConfigParser` reads them (its defaults: what flake8 reads `setup.cfg`,
 * `tox.ini` and `.flake8` with): `[section]` headers, `key = value` or `key: value` (the first `=` or `:` ends the key,
 * keys lower-cased), values continued on lines indented deeper than their key, whole-line `#` and `;` comments (also
 * inside a continued value; no comment after a value), blank lines kept inside a continued value, `[DEFAULT]` keys
 * beneath every section, no interpolation.
 *
 * @module
 */

/** configparser's section whose keys lie beneath every other. */
const DEFAULT_SECTION = "DEFAULT";

/** A file configparser refuses: a line it cannot read (its `ParsingError`), or a section or key given twice. */
export class IniError extends Error {
  constructor(
    /** `parsing`: configparser's ParsingError (flake8 passes over such a file); `duplicate`: its Duplicate*Error. */
    readonly kind: "parsing" | "duplicate",
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "IniError";
  }
}

/** The sections of an INI text (`DEFAULT` under its own name), each a map of lower-cased keys to values. */
export type IniSections = Map<string, Map<string, string>>;

/**
 * Parses `text` as configparser does (see the module doc). Throws {@link IniError}: the first line configparser cannot
 * read (a line before any section, a line that is neither a header, a key nor a continuation), a duplicate.
 */
export function parseIni(text: string): IniSections {
  const sections: IniSections = new Map();
  const lines = text.split(/\r\n|\n|\r/);
  let section: Map<string, string[]> | undefined;
  let sectionName = "";
  let key: string | undefined;
  let indent = 0;
  const raw = new Map<string, Map<string, string[]>>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const value = line.trim();
    const comment = value.startsWith("#") || value.startsWith(";");
    if (comment || value === "") {
      // A blank line belongs to the value being continued (trimmed off its end later); a comment is dropped.
      if (!comment && section && key !== undefined) section.get(key)!.push("");
      continue;
    }
    const level = line.search(/\S/);
    if (section && key !== undefined && level > indent) {
      section.get(key)!.push(value);
      continue;
    }
    indent = level;
    const header = /^\[(.+)\]/.exec(value);
    if (header) {
      sectionName = header[1];
      key = undefined;
      // `[DEFAULT]` again continues it; another section again is an error.
      if (sectionName === DEFAULT_SECTION && raw.has(sectionName)) {
        section = raw.get(sectionName);
        continue;
      }
      if (raw.has(sectionName)) {
        throw new IniError("duplicate", i + 1, `section "${sectionName}" appears twice (line ${i + 1})`);
      }
      section = new Map();
      raw.set(sectionName, section);
      continue;
    }
    if (!section) throw new IniError("parsing", i + 1, `line ${i + 1} comes before any [section] header`);
    const option = /^(.*?)\s*([=:])\s*(.*)$/.exec(value);
    if (!option || option[1] === "") {
      throw new IniError("parsing", i + 1, `line ${i + 1} is neither a [section], a key = value nor a continuation`);
    }
    key = option[1].trimEnd().toLowerCase();
    if (section.has(key)) {
      throw new IniError("duplicate", i + 1, `key "${key}" appears twice in [${sectionName}] (line ${i + 1})`);
    }
    section.set(key, [option[3].trim()]);
  }
  const defaults = raw.get(DEFAULT_SECTION);
  for (const [name, keys] of raw) {
    const joined = new Map<string, string>();
    const beneath = name === DEFAULT_SECTION ? [] : [...defaults ?? []];
    for (const [k, v] of [...beneath, ...keys]) joined.set(k, v.join("\n").trimEnd());
    sections.set(name, joined);
  }
  return sections;
}
