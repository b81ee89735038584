/**
 * Engine settings in poly.toml checked at load, as poly's own keys are: a
 * misspelt or mistyped biome key stops the run with file:line:col instead of
 * being ignored by biome (an unknown key) or failing every file (a wrong type).
 *
 * - `[lint.<lang>.biome]` takes poly's keys only (`enabled`, `select`, `ignore`,
 *   `rules`, `configuration`).
 * - `[fmt.<lang>.biome]`: every other key is one of biome's formatter options
 *   (`FormatterConfiguration` in biome's schema).
 * - `configuration = {...}` in either is a biome configuration object, checked
 *   against biome's whole schema; the `project` domain and its rules in it are
 *   refused, as in a `biome.json` (lib/config/native/biome.ts).
 *
 * - `[lint.python.ruff]`: its selectors (`select`, `ignore`) and other keys (ruff
 *   settings) are handed to ruff's own settings parser (the WebAssembly module
 *   poly runs), which refuses an unknown selector or setting; the refusal is
 *   placed at the key it names. (`[fmt.python.ruff]` is left to the run.)
 *
 * biome's schema (600 KB, and ajv) and ruff's module load only for settings the
 * validity memo (`valid.ts`) has not seen pass before.
 *
 * @module
 */
import type { BiomeValue } from "./_biome_schema.ts";
import { displayPath } from "./_issues.ts";
import type { ConfigProblem } from "./_issues.ts";
import { suggest } from "./_suggest.ts";
import { passes } from "./valid.ts";
import { UNIFORM_KEYS } from "../engines/settings.ts";
import type { RawTable } from "./parse.ts";
import { unhonouredKey, unhonouredText } from "./native/biome.ts";
import { isTable } from "./table.ts";

/** The keys of a `[lint.<lang>.biome]` table (poly's own; biome's go under `configuration`). */
const LINT_KEYS = ["enabled", "select", "ignore", "rules", "configuration"];

/** The keys of a `[fmt.<lang>.biome]` table that are poly's, not biome formatter options. */
const FMT_POLY_KEYS = ["enabled", "configuration"];

/** biome's name of the language whose formatter options a poly language's files take. */
const BIOME_LANGUAGE: Record<string, { key: string; name: string }> = {
  javascript: { key: "javascript", name: "JavaScript" },
  typescript: { key: "javascript", name: "JavaScript" },
  json: { key: "json", name: "JSON" },
  css: { key: "css", name: "CSS" },
  graphql: { key: "graphql", name: "GraphQL" },
};

/** Every biome table of a raw poly.toml table: `[section, language, table]`. */
function biomeTables(raw: RawTable): [string, string, RawTable][] {
  const out: [string, string, RawTable][] = [];
  for (const section of ["lint", "fmt"]) {
    const languages = raw[section];
    if (!isTable(languages)) continue;
    for (const [language, tools] of Object.entries(languages)) {
      if (isTable(tools) && isTable(tools.biome)) out.push([section, language, tools.biome]);
    }
  }
  return out;
}

/**
 * Problems of the engine settings in one file's raw table (empty: none), each
 * at its key path; the caller positions and reports the first.
 */
export async function engineTableProblems(raw: RawTable): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  const values: BiomeValue[] = [];
  for (const [section, language, table] of biomeTables(raw)) {
    const at = [section, language, "biome"];
    if (isTable(table.configuration)) {
      values.push({ value: table.configuration, at: [...at, "configuration"] });
      const unhonoured = unhonouredKey(table.configuration);
      if (unhonoured) {
        problems.push({
          path: [...at, "configuration"],
          detail: unhonouredText(unhonoured),
        });
      }
    }
    if (section === "lint") {
      for (const key of Object.keys(table).filter((k) => !LINT_KEYS.includes(k))) {
        const path = [...at, key];
        const guess = suggest(key, LINT_KEYS);
        const hint = guess
          ? `did you mean "${guess}"?`
          : `expected one of: ${LINT_KEYS.map((k) => `"${k}"`).join(", ")}`;
        problems.push({ path, detail: `unknown key "${displayPath(path)}" (${hint})` });
      }
    } else {
      const options = Object.fromEntries(Object.entries(table).filter(([k]) => !FMT_POLY_KEYS.includes(k)));
      if (Object.keys(options).length) values.push({ value: options, def: "FormatterConfiguration", at });
    }
  }
  problems.push(...await ruffProblems(raw));
  if (values.length === 0) return problems;
  const key = values.map((v) => [v.at, v.def ?? null, v.value]);
  await passes("biome-settings", key, async () => {
    const { biomeProblems, languageFormatterKeys } = await import("./_biome_schema.ts");
    const byLanguage = languageFormatterKeys();
    for (const value of values) {
      for (const problem of biomeProblems(value)) {
        // A language's own option written as a generic formatter key: say where biome reads it.
        const name = String(problem.path.at(-1));
        const language = BIOME_LANGUAGE[String(value.at[1])];
        if (
          value.def === "FormatterConfiguration" && language && problem.path.length === value.at.length + 1 &&
          problem.detail.startsWith("unknown key") && byLanguage[language.key]?.includes(name)
        ) {
          problem.detail = `unknown key "${displayPath(problem.path)}": biome reads it from its ${language.name} ` +
            `formatter options: configuration = { ${language.key} = { formatter = { ${name} = ... } } }`;
        }
        problems.push(problem);
      }
    }
    return problems.length === 0;
  });
  return problems;
}

/** poly's keys of a `[lint.python.ruff]` table (the engines' uniform keys); every other key is a ruff setting. */
const RUFF_POLY_KEYS = [...UNIFORM_KEYS];

/**
 * Problems of `[lint.python.ruff]`: the table's settings as the ruff engine hands
 * them to ruff (its other keys at the top, `select`/`ignore` under `lint`), parsed
 * by ruff itself; its refusal placed at the selector or key it names.
 */
async function ruffProblems(raw: RawTable): Promise<ConfigProblem[]> {
  const lint = raw.lint;
  const table = isTable(lint) && isTable(lint.python) ? lint.python.ruff : undefined;
  if (!isTable(table)) return [];
  const settings = Object.fromEntries(Object.entries(table).filter(([k]) => !RUFF_POLY_KEYS.includes(k)));
  const selectors: Record<string, unknown> = {};
  if (Array.isArray(table.select)) selectors.select = table.select;
  if (Array.isArray(table.ignore)) selectors.ignore = table.ignore;
  if (Object.keys(settings).length === 0 && Object.keys(selectors).length === 0) return [];
  const at = ["lint", "python", "ruff"];
  let refusal: string | undefined;
  await passes("ruff-settings", [settings, selectors], async () => {
    const ruff = await import("@astral-sh/ruff-wasm-nodejs");
    try {
      new ruff.Workspace({ ...settings, lint: selectors }, ruff.PositionEncoding.Utf16);
      return true;
    } catch (e) {
      refusal = (e instanceof Error ? e.message : String(e)).replace(/^(?:Error: )+/, "").trim() || "it gave no reason";
      return false;
    }
  });
  if (refusal === undefined) return [];
  const selector = /Unknown rule selector `([^`]*)` in `(select|ignore)`/.exec(refusal);
  if (selector) {
    const list = table[selector[2]] as unknown[];
    const index = list.indexOf(selector[1]);
    const path = index >= 0 ? [...at, selector[2], index] : [...at, selector[2]];
    return [{
      path,
      detail: `invalid value for "${displayPath(path)}": ruff does not know the rule selector "${selector[1]}"`,
    }];
  }
  const field = /unknown field `([^`]*)`/.exec(refusal);
  if (field && field[1] in settings) {
    const path = [...at, field[1]];
    return [{ path, detail: `unknown key "${displayPath(path)}": ruff says: ${refusal}` }];
  }
  const variant = /unknown variant `([^`]*)`/.exec(refusal);
  const key = variant && Object.keys(settings).find((k) => settings[k] === variant[1]);
  const path = key ? [...at, key] : at;
  return [{ path, detail: `invalid value for "${displayPath(path)}": ruff says: ${refusal}` }];
}
