/**
 * yaml — YAML lint: every document must parse, and mapping keys must be unique
 * (npm `yaml`, a YAML 1.2 parser).
 *
 * - Tier: in-process (JavaScript). Languages: YAML (lint only; formatting is `prettier`).
 * - Findings carry the parser's code in kebab case, with line and column:
 *   `duplicate-key`, `bad-indent`, `missing-char`, `unexpected-token`, ... (errors,
 *   severity `error`) and parser warnings (severity `warning`). A YAML file is
 *   linted for exactly these problems, so they are diagnostics, not errored records.
 * - Multi-document streams (`---`) are checked document by document.
 * - Tags name an application's types, not the YAML's form: a tag the schema does not know (CloudFormation's `!Ref`,
 *   GitLab CI's `!reference`, mkdocs' `!ENV` and `!!python/name:...`, Home Assistant's `!include` / `!secret`) is
 *   declared to the parser as an application tag (`customTags`) that keeps its node as written, so it is no finding:
 *   the document is well-formed, as yamllint and PyYAML's parser say. A tag the schema knows put on the wrong kind of
 *   node (`!!str {a: 1}`, `!!map x`) and an undeclared tag handle (`!e!x` without `%TAG`) are still reported.
 * - YAML 1.1 merge keys (`<<: *anchor`) are read in both versions (`merge: true`), so several `<<` keys in one
 *   mapping are not duplicates (yamllint's `key-duplicates` default, PyYAML, GitLab CI); any other repeated key is.
 * - `[lint.yaml.yaml]` keys: `select` / `ignore` / `rules.<code>.level`,
 *   `unique_keys` (default true), `version` ("1.1" or "1.2", default "1.2").
 *
 * Example: `a: 1\na: 2` → `duplicate-key Map keys must be unique` at 2:1.
 *
 * @module
 */
import type { Diagnostic, Severity } from "../../report/schema.ts";
import { applyRuleSettings } from "../settings.ts";
import { packageFiles } from "../module.ts";
import { EngineError, type EngineInstance, type EngineSpec } from "../types.ts";
import type { CollectionTag, Document, ScalarTag, visit as visitFn } from "yaml";

const PACKAGE = "yaml";
const VERSION = "2.9.1";

interface YamlProblem {
  code: string;
  message: string;
  linePos?: [{ line: number; col: number }, { line: number; col: number }?];
}

function toDiagnostic(p: YamlProblem, severity: Severity): Diagnostic {
  const [start, end] = p.linePos ?? [{ line: 1, col: 1 }];
  const title = p.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  return {
    engine: "yaml",
    code: p.code.toLowerCase().replace(/_/g, "-"),
    severity,
    title,
    span: {
      start_line: start.line,
      start_col: start.col,
      end_line: end?.line ?? start.line,
      end_col: end?.col ?? start.col,
    },
  };
}

/**
 * The tags the documents use that their schema does not resolve: neither one of its tags (of any kind) nor one of the
 * library's known YAML 1.1 tags. These are application tags (`!Ref`, `!reference`, `!!python/name:...`).
 */
function applicationTags(docs: Document.Parsed[], visit: typeof visitFn): Set<string> {
  const names = new Set<string>();
  for (const doc of docs) {
    const schema = doc.schema;
    visit(doc, {
      Node(_, node) {
        const tag = node.tag;
        if (!tag || tag === "!" || names.has(tag)) return;
        if (schema.knownTags[tag] || schema.tags.some((t) => t.tag === tag)) return;
        names.add(tag);
      },
    });
  }
  return names;
}

/** Tags for `names` that keep a scalar, mapping or sequence node as it was written. */
function passThroughTags(names: Set<string>): (ScalarTag | CollectionTag)[] {
  return [...names].flatMap((tag): (ScalarTag | CollectionTag)[] => [
    { tag, resolve: (value: string) => value },
    { tag, collection: "map" },
    { tag, collection: "seq" },
  ]);
}

/** The yaml lint engine. */
export const yaml: EngineSpec = {
  id: "yaml",
  tier: "in-process",
  lintLanguages: ["yaml"],
  formatLanguages: [],
  capabilities: { lint: true, format: false, fix: false },
  upstream: `${PACKAGE} ${VERSION}`,
  defaultEnabled: true,
  moduleUrls() {
    return packageFiles(import.meta.resolve(PACKAGE), [".js"]);
  },
  async load(): Promise<EngineInstance> {
    const { parseAllDocuments, visit } = await import("yaml");
    return {
      lint(file, settings) {
        const version = settings.tool.version ?? "1.2";
        if (version !== "1.1" && version !== "1.2") {
          throw new EngineError(`"version" must be "1.1" or "1.2", got ${JSON.stringify(version)}`);
        }
        const options = {
          uniqueKeys: settings.tool.unique_keys !== false,
          version,
          merge: true,
          prettyErrors: true,
        } as const;
        const parse = (customTags?: (ScalarTag | CollectionTag)[]) => {
          const docs = parseAllDocuments(file.text, { ...options, customTags });
          return Array.isArray(docs) ? docs : [docs];
        };
        let list = parse();
        // A second parse, told the application tags the first one met, so that they resolve. A tag the schema does not
        // know is always reported unresolved: without such a report there is none, and the documents are not walked.
        const unresolved = list.some((doc) =>
          [...doc.errors, ...doc.warnings].some((p) => p.code === "TAG_RESOLVE_FAILED")
        );
        const tags = unresolved ? applicationTags(list, visit) : new Set<string>();
        if (tags.size > 0) list = parse(passThroughTags(tags));
        const diagnostics: Diagnostic[] = [];
        for (const doc of list) {
          for (const e of doc.errors) diagnostics.push(toDiagnostic(e as YamlProblem, "error"));
          for (const w of doc.warnings) diagnostics.push(toDiagnostic(w as YamlProblem, "warning"));
        }
        return { diagnostics: applyRuleSettings(diagnostics, settings) };
      },
    };
  },
};
