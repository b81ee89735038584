/**
 * The built-in pack: loads cleanly, is big and broad enough, every rule is
 * documented and tested, its own tests pass, and every fix it offers removes
 * the finding without breaking the code.
 */
import { equal, ok } from "node:assert/strict";
import { parse } from "@ast-grep/napi";
import { applyEdits } from "../../lib/engines/ast_grep/_fix.ts";
import { primaryParser } from "../../lib/engines/ast_grep/languages.ts";
import { napiLang } from "../../lib/engines/ast_grep/napi.ts";
import { shellView } from "../../lib/engines/ast_grep/_dockerfile.ts";
import { loadRuleSet } from "../../lib/rules/load.ts";
import { BUILTIN_DIR } from "../../lib/rules/_files.ts";
import { join } from "node:path";
import { scanSnippet } from "../../lib/engines/ast_grep/scan.ts";
import { testRules } from "../../lib/rules/test.ts";
import type { LoadedRule } from "../../lib/rules/types.ts";

const builtin = () => loadRuleSet("/nonexistent-config-dir", { dirs: [] });

Deno.test("the built-in pack loads without errors: at least 25 rules over at least 6 languages", async () => {
  const set = await builtin();
  equal(set.errors.length, 0, JSON.stringify(set.errors));
  equal(set.testErrors.length, 0, JSON.stringify(set.testErrors));
  ok(set.rules.length >= 25, `${set.rules.length} rules`);
  const languages = new Set(set.rules.map((r) => r.language));
  ok(languages.size >= 6, [...languages].join(","));
  for (const lang of ["typescript", "python", "go", "rust", "bash", "yaml", "dockerfile"]) {
    ok(languages.has(lang as never), lang);
  }
});

Deno.test("every built-in rule has a message, a note, a severity, a doc comment and a test file", async () => {
  const set = await builtin();
  const tested = new Set(set.tests.map((t) => t.id));
  for (const rule of set.rules) {
    ok(rule.message && rule.message !== rule.id, `${rule.id}: message`);
    ok(rule.note || rule.url, `${rule.id}: note or url`);
    ok(rule.defaultSeverity !== "off", `${rule.id}: enabled by default`);
    ok(tested.has(rule.id), `${rule.id}: no ${rule.id}-test.yml`);
    ok(rule.file.endsWith(`/${rule.id}.yml`), `${rule.id}: file is named after the id (${rule.file})`);
    const test = set.tests.find((t) => t.id === rule.id)!;
    ok(test.valid.length >= 1 && test.invalid.length >= 1, `${rule.id}: needs valid and invalid snippets`);
    ok(test.file.endsWith(`/${rule.id}-test.yml`), `${rule.id}: test file ${test.file}`);
    const text = await Deno.readTextFile(join(BUILTIN_DIR, rule.file.slice("builtin:".length)));
    ok(text.startsWith("# What it does: "), `${rule.id}: the file opens with a "What it does" comment`);
  }
});

Deno.test("the built-in pack's own test cases pass", async () => {
  const report = await testRules(await builtin());
  const failed = report.results.filter((r) => r.status !== "passed");
  equal(failed.length, 0, JSON.stringify(failed, null, 2));
  equal(report.errors.length, 0, JSON.stringify(report.errors));
});

function hasSyntaxError(rule: LoadedRule, text: string): boolean {
  const source = rule.language === "dockerfile" ? shellView(text) ?? "" : text;
  const root = parse(napiLang(primaryParser(rule.language)), source).root();
  return root.kind() === "ERROR" || root.find({ rule: { kind: "ERROR" } }) !== null;
}

Deno.test("every built-in fix removes its finding and leaves code that parses", async () => {
  const set = await builtin();
  let checked = 0;
  for (const rule of set.rules.filter((r) => r.fix !== undefined)) {
    for (const test of set.tests.filter((t) => t.id === rule.id)) {
      for (const snippet of test.invalid) {
        const hits = await scanSnippet(rule, snippet);
        ok(hits.length > 0, `${rule.id}: invalid snippet does not match`);
        const fixed = applyEdits(snippet, hits.flatMap((h) => (h.edit ? [h.edit] : []))).text;
        equal((await scanSnippet(rule, fixed)).length, 0, `${rule.id}: still matches after the fix:\n${fixed}`);
        ok(
          hasSyntaxError(rule, snippet) || !hasSyntaxError(rule, fixed),
          `${rule.id}: the fix broke the syntax:\n${fixed}`,
        );
        checked++;
      }
    }
  }
  ok(checked >= 8, `only ${checked} fixes checked`);
});
