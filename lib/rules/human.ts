/**
 * The `human` encodings of `poly rules list` and `poly rules test`: a table of
 * rules and a pass/fail line per rule, with load errors as `file:line:col: message`.
 *
 * @module
 */
import { describeRuleError, type RulesDocument } from "./report.ts";

/** The rule table, then the load errors. */
export function renderRulesList(doc: RulesDocument): string {
  const header = ["ID", "LANGUAGE", "SOURCE", "DEFAULT", "SEVERITY", "ENABLED", "FILE"];
  const rows = doc.rules.map((r) => [
    r.id,
    r.language,
    r.source,
    r.default_severity,
    r.severity,
    r.enabled ? "yes" : "no",
    `${r.file}:${r.line}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  const out = [line(header), ...rows.map(line)];
  const s = doc.summary;
  out.push("", `${s.total} rules (${s.enabled} enabled; ${s.builtin} built-in, ${s.user} user)`);
  return out.join("\n") + "\n" + renderErrors(doc);
}

/** One line per rule (PASS/FAIL/NONE), failing snippets under it, then a summary line. */
export function renderRulesTest(doc: RulesDocument): string {
  const tests = doc.tests;
  if (!tests) return renderErrors(doc);
  const out: string[] = [];
  for (const r of tests.results) {
    const label = r.status === "passed" ? "PASS" : r.status === "failed" ? "FAIL" : "NONE";
    const counts = r.status === "untested" ? "no test cases" : `${r.valid} valid, ${r.invalid} invalid`;
    out.push(`${label} ${r.id} (${counts})`);
    for (const f of r.failures) {
      const snippet = f.snippet.length > 60 || f.snippet.includes("\n")
        ? JSON.stringify(f.snippet.slice(0, 60)) + (f.snippet.length > 60 ? "…" : "")
        : JSON.stringify(f.snippet);
      out.push(`  ${f.kind}[${f.index}] ${f.reason}: ${snippet}`);
    }
  }
  for (const e of tests.errors) {
    out.push(`ERROR ${[e.file, e.line, e.column].filter((p) => p !== undefined).join(":")}: ${e.message}`);
  }
  const s = tests.summary;
  out.push(
    "",
    `${s.passed} passed, ${s.failed} failed, ${s.untested} without tests` +
      (s.errors ? `, ${s.errors} test file errors` : ""),
  );
  return out.join("\n") + "\n" + renderErrors(doc);
}

function renderErrors(doc: RulesDocument): string {
  if (doc.errors.length === 0) return "";
  return doc.errors.map((e) => `error: ${describeRuleError(e)}\n`).join("");
}
