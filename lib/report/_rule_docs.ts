/**
 * What a report can say about a rule beyond its findings: a friendly name and
 * where its documentation is. From the engines' own metadata: the URL a
 * finding carries (biome, markdownlint, shellcheck, clippy, go vet, oxlint and
 * ast-grep rules set one), and for ruff, whose WebAssembly build reports codes
 * only, the code → name table of ruff's own `ruff rule --all` (`_ruff_rules.json`;
 * a code newer than the table has no page).
 *
 * @module
 */
import ruffRules from "./_ruff_rules.json" with { type: "json" };
import type { Diagnostic } from "./schema.ts";

const RUFF_NAMES: Readonly<Record<string, string>> = ruffRules.names;

/** The documentation page of a finding's rule, or undefined when none is known. */
export function ruleHelpUri(d: Pick<Diagnostic, "engine" | "code" | "url">): string | undefined {
  if (d.url) return d.url;
  if (d.engine === "ruff" && d.code && RUFF_NAMES[d.code]) {
    return `https://docs.astral.sh/ruff/rules/${RUFF_NAMES[d.code]}/`;
  }
  if (d.engine === "biome" && d.code?.includes("/")) {
    return `https://biomejs.dev/linter/rules/${kebab(d.code.split("/").pop()!)}/`;
  }
  return undefined;
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * A rule's friendly name as one Pascal-case identifier (what SARIF's `name` asks
 * for): ruff's rule name (`F401` → `UnusedImport`), else the code's last part
 * (`lint/suspicious/noDoubleEquals` → `NoDoubleEquals`, `MD013/line-length` →
 * `LineLength`, `clippy::needless_return` → `NeedlessReturn`).
 */
export function ruleName(d: Pick<Diagnostic, "engine" | "code">): string {
  const raw = d.engine === "ruff" && d.code && RUFF_NAMES[d.code]
    ? RUFF_NAMES[d.code]
    : (d.code ?? d.engine).split(/\/|::/).pop()!;
  const pascal = raw.split(/[-_\s.]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(pascal) ? pascal : `Rule${pascal}`;
}

/**
 * A rule's own one-line description when its engine's metadata names it (ruff:
 * `F401` → `Unused import`), else undefined (the report then uses a finding's title).
 */
export function ruleSummary(d: Pick<Diagnostic, "engine" | "code">): string | undefined {
  const name = d.engine === "ruff" && d.code ? RUFF_NAMES[d.code] : undefined;
  if (!name) return undefined;
  const words = name.replaceAll("-", " ");
  return words[0].toUpperCase() + words.slice(1);
}
