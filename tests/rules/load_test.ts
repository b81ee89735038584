/**
 * Loading rule packs: every kind of bad input is reported at its file (and line
 * and column where known) while the other rules still load.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { formatLoadError, loadRuleSet, ParseMemo } from "../../lib/rules/load.ts";
import type { RuleSet } from "../../lib/rules/types.ts";
import { tempTree } from "./_helpers.ts";
import { tempDir } from "../_helpers/temp.ts";

const GOOD = "id: user-no-alert\nlanguage: TypeScript\nseverity: info\nmessage: alert\nrule:\n  pattern: alert($$$A)\n";

async function loadUser(
  files: Record<string, string>,
  table: Record<string, unknown> = {},
): Promise<{ dir: string; set: RuleSet }> {
  const dir = await tempTree({ ".poly/rules/good.yml": GOOD, ...files });
  return { dir, set: await loadRuleSet(dir, table) };
}

function only(set: RuleSet): string {
  equal(set.errors.length, 1, set.errors.map(formatLoadError).join("\n"));
  return formatLoadError(set.errors[0]);
}

function stillLoads(set: RuleSet): void {
  ok(set.rules.some((r) => r.id === "user-no-alert"), "the good user rule still loads");
  ok(set.rules.filter((r) => r.origin === "builtin").length >= 25, "the built-in pack still loads");
}

Deno.test("loadRuleSet() reports invalid YAML at file:line:col", async () => {
  const { dir, set } = await loadUser({ ".poly/rules/broken.yml": "id: x\nlanguage: [TypeScript\nrule: {}\n" });
  match(
    only(set),
    new RegExp(`^${join(dir, ".poly/rules/broken.yml").replaceAll("/", "\\/")}:\\d+:\\d+: invalid YAML: `),
  );
  stillLoads(set);
});

Deno.test("loadRuleSet() reports an unknown language at its line", async () => {
  const { set } = await loadUser({ ".poly/rules/cobol.yml": "id: c1\nlanguage: Cobol\nrule:\n  pattern: x\n" });
  match(only(set), /cobol\.yml:2:11: rule "c1": unknown language "Cobol": expected one of bash, css, dockerfile/);
  stillLoads(set);
});

Deno.test("loadRuleSet() leaves a user rule's metadata.poly-needs as metadata (only the built-in pack's are read)", async () => {
  const text = "id: n\nlanguage: TypeScript\nmetadata:\n  poly-needs: '('\nrule:\n  pattern: f()\n";
  const { set } = await loadUser({ ".poly/rules/needs.yml": text });
  deepEqual(set.errors, []);
  equal(set.rules.find((r) => r.id === "n")?.needs, undefined);
  ok(set.rules.some((r) => r.origin === "builtin" && r.needs !== undefined), "a built-in rule declares a need");
});

Deno.test("loadRuleSet() refuses a pattern that does not parse, at the pattern's line", async () => {
  const text = "id: bad-pattern\nlanguage: Python\nrule:\n  any:\n    - pattern: print($A)\n    - pattern: 'def ('\n";
  const { set } = await loadUser({ ".poly/rules/bad.yml": text });
  match(only(set), /bad\.yml:6:16: rule "bad-pattern": pattern "def \(" does not parse as python: syntax error/);
  stillLoads(set);
});

Deno.test("loadRuleSet() reports ast-grep's own rule errors (kind, regex, utility)", async () => {
  const { set } = await loadUser({
    ".poly/rules/kind.yml": "id: k\nlanguage: Go\nrule:\n  kind: no_such_kind\n",
    ".poly/rules/regex.yml": "id: r\nlanguage: Rust\nrule:\n  regex: '('\n",
    ".poly/rules/util.yml": "id: u\nlanguage: Bash\nrule:\n  matches: missing-util\n",
  });
  const messages = set.errors.map(formatLoadError).sort();
  equal(messages.length, 3, messages.join("\n"));
  match(messages[0], /kind\.yml:4:9: rule "k": `rule` is not configured correctly: .*Kind `no_such_kind` is invalid/);
  match(messages[1], /regex\.yml:4:10: rule "r": .*regex parse error/);
  match(messages[2], /util\.yml:4:12: rule "u": .*Rule `missing-util` is not defined/);
  stillLoads(set);
});

Deno.test("loadRuleSet() reports an id two packs share, naming both files", async () => {
  const dir = await tempTree({
    "a/one.yml": GOOD,
    "b/two.yml": GOOD.replace("severity: info", "severity: error"),
    "c/debugger.yml": "id: js-no-debugger\nlanguage: JavaScript\nrule:\n  kind: debugger_statement\n",
  });
  const set = await loadRuleSet(dir, { dirs: ["a", "b", "c"] });
  const messages = set.errors.map(formatLoadError);
  equal(messages.length, 2, messages.join("\n"));
  match(messages[0], new RegExp(`b/two\\.yml:1:1: rule id "user-no-alert" is already defined in ${dir}/a/one\\.yml:1`));
  match(
    messages[1],
    /c\/debugger\.yml:1:1: rule id "js-no-debugger" is already defined in builtin:javascript\/js-no-debugger\.yml:7/,
  );
  equal(set.rules.find((r) => r.id === "user-no-alert")?.severity, "info", "the first definition wins");
});

Deno.test("loadRuleSet() refuses unknown keys, unsupported keys and missing required keys", async () => {
  const { set } = await loadUser({
    ".poly/rules/typo.yml": "id: t\nlanguage: Go\nseverty: error\nrule:\n  kind: identifier\n",
    ".poly/rules/transform.yml": "id: tr\nlanguage: Go\nrule:\n  kind: identifier\ntransform:\n  X: {}\n",
    ".poly/rules/norule.yml": "id: nr\nlanguage: Go\n",
  });
  const messages = set.errors.map(formatLoadError).sort();
  equal(messages.length, 3, messages.join("\n"));
  match(messages[0], /norule\.yml:1:1: invalid rule: missing required key "rule"/);
  match(messages[1], /transform\.yml:5:1: invalid rule: `transform` is not supported/);
  match(messages[2], /typo\.yml:3:1: invalid rule: unknown key "severty"/);
});

Deno.test("loadRuleSet() names poly.toml for an override of an unknown rule, with a suggestion", async () => {
  const toml = '[rules]\n\n[rules.overrides."js-no-debuger"]\nseverity = "off"\n';
  const dir = await tempTree({ "poly.toml": toml });
  const set = await loadRuleSet(dir, { overrides: { "js-no-debuger": { severity: "off" } } });
  equal(
    only(set),
    `${
      join(dir, "poly.toml")
    }:3:8: [rules.overrides."js-no-debuger"]: unknown rule id "js-no-debuger": did you mean "js-no-debugger"?`,
  );
});

Deno.test("loadRuleSet() reports an invalid [rules] table and a missing configured directory", async () => {
  const dir = await tempTree({});
  const bad = await loadRuleSet(dir, { overrides: { "js-no-eval": { severity: "fatal" } } });
  match(only(bad), /poly\.toml: \[rules\.overrides\.js-no-eval\.severity\]: Invalid option/);
  const missing = await loadRuleSet(dir, { dirs: ["lint-rules"] });
  match(only(missing), /lint-rules: rule directory cannot be read: /);
  const absentDefault = await loadRuleSet(dir, { dirs: [".poly/rules"] });
  equal(absentDefault.errors.length, 0, "the default directory may be absent");
});

Deno.test("loadRuleSet() keeps test-file problems out of the run's errors", async () => {
  const { set } = await loadUser({ ".poly/rules/good-test.yml": "id: user-no-alert\nvalid: [1\n" });
  equal(set.errors.length, 0);
  equal(set.testErrors.length, 1);
  match(formatLoadError(set.testErrors[0]), /good-test\.yml:\d+:\d+: invalid YAML/);
});

Deno.test("loadRuleSet() reads multi-document files and memoizes by input", async () => {
  const two = GOOD + "---\n" + GOOD.replace("user-no-alert", "user-no-prompt").replace("alert($$$A)", "prompt($$$A)");
  const dir = await tempTree({ ".poly/rules/two.yml": two });
  const a = await loadRuleSet(dir, {});
  deepEqual(a.rules.filter((r) => r.origin === "user").map((r) => [r.id, r.line]), [["user-no-alert", 1], [
    "user-no-prompt",
    8,
  ]]);
  equal(await loadRuleSet(dir, {}), a);
  const without = await loadRuleSet(dir, { builtin: false });
  equal(without.rules.length, 2);
  ok(without.digest !== a.digest);
});

/** A rule file's text and a ParseMemo opened on a file of its own in a new folder. */
async function freshMemo(): Promise<{ path: string; text: string; first: ParseMemo }> {
  const path = `${await tempDir({ prefix: "poly-parse-memo-" })}/rules/parsed-test.json`;
  const text = "id: no-eval\nlanguage: typescript\nseverity: warning\nmessage: no eval\nrule:\n  pattern: eval($A)\n";
  return { path, text, first: await ParseMemo.open(path) };
}

Deno.test("ParseMemo remembers parsed rule files across opens, by bytes; a damaged memo is parsed again", async () => {
  const { path, text, first } = await freshMemo();
  const parsed = await first.parse(text, "/x/no-eval.yml", "user");
  deepEqual(parsed.rules.map((r) => r.id), ["no-eval"]);
  await first.save();
  const stored = JSON.parse(await Deno.readTextFile(path));
  deepEqual(Object.keys(stored.files).length, 1);

  const second = await ParseMemo.open(path);
  const again = await second.parse(text, "/x/no-eval.yml", "user");
  // Stored as JSON: equal to what was parsed, up to absent optional fields.
  deepEqual(again, JSON.parse(JSON.stringify(parsed)));
  again.rules[0].severity = "off"; // callers mutate (overrides): the memo hands out copies
  deepEqual((await second.parse(text, "/x/no-eval.yml", "user")).rules[0].severity, "warning");
  // Other bytes, another entry: an edited rule file is parsed again, with its error.
  const broken = await second.parse(text.replace("pattern: eval($A)", "pattern: ["), "/x/no-eval.yml", "user");
  ok(broken.errors.length > 0, JSON.stringify(broken));

  await Deno.writeTextFile(path, "{ not json");
  const third = await ParseMemo.open(path);
  deepEqual(JSON.stringify(await third.parse(text, "/x/no-eval.yml", "user")), JSON.stringify(parsed));
});

Deno.test("ParseMemo keeps the three newest memos of other builds beside its own and removes older ones", async () => {
  const dir = await tempDir({ prefix: "poly-parse-memo-" });
  try {
    await Deno.mkdir(`${dir}/rules`);
    // Five other builds' memos, written a minute apart (oldest first), and one that is not a memo.
    for (let i = 0; i < 5; i++) {
      const path = `${dir}/rules/parsed-other${i}.json`;
      await Deno.writeTextFile(path, "{}");
      const at = new Date(Date.now() - (10 - i) * 60_000);
      await Deno.utime(path, at, at);
    }
    await Deno.writeTextFile(`${dir}/rules/notes.txt`, "kept");
    const memo = await ParseMemo.open(`${dir}/rules/parsed-mine.json`);
    await memo.parse("id: x\nlanguage: typescript\nmessage: m\nrule:\n  pattern: foo()\n", "/x/x.yml", "user");
    await memo.save();
    const names = (await Array.fromAsync(Deno.readDir(`${dir}/rules`))).map((e) => e.name).sort();
    deepEqual(names, [
      "notes.txt",
      "parsed-mine.json",
      "parsed-other2.json",
      "parsed-other3.json",
      "parsed-other4.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ParseMemo keeps the built-in pack whole under a code identity, and hands out copies", async () => {
  const { path, text, first } = await freshMemo();
  const parsed = await first.parse(text, "builtin:typescript/no-eval.yml", "builtin");
  equal(first.builtinPack("code-a"), undefined);
  first.rememberBuiltinPack("code-a", [{ display: "builtin:typescript/no-eval.yml", parsed }]);
  await first.save();

  const second = await ParseMemo.open(path);
  equal(second.builtinPack("code-b"), undefined, "another build's pack is never used");
  const pack = second.builtinPack("code-a");
  deepEqual(pack?.map((f) => f.display), ["builtin:typescript/no-eval.yml"]);
  deepEqual(pack?.[0].parsed, JSON.parse(JSON.stringify(parsed)));
  pack![0].parsed.rules[0].severity = "off"; // overrides mutate rules: the memo hands out copies
  equal(second.builtinPack("code-a")?.[0].parsed.rules[0].severity, "warning");
});

Deno.test("loadRuleSet(): calls made while a set loads wait for that load (one per run, not one per configuration)", async () => {
  const dir = await tempTree({ ".poly/rules/r.yml": "" });
  const table = { dirs: [join(dir, ".poly/rules")], builtin: true };
  // A monorepo's run asks once per package's configuration, all at once.
  const sets = await Promise.all(Array.from({ length: 20 }, () => loadRuleSet(dir, table)));
  ok(sets.every((set) => set === sets[0]), "the very same set");
});
