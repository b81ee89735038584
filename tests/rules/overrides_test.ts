/**
 * `[rules.overrides."<id>"]`: severity changes, `off`, `enabled = false` and
 * extra ignores change both the rule list and the diagnostics.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { lintWithRules } from "../../lib/engines/ast_grep/diagnose.ts";
import { loadRuleSet } from "../../lib/rules/load.ts";
import { RulesTable } from "../../lib/rules/config.ts";
import { FIXTURE_REPO } from "./_helpers.ts";

const APP = join(FIXTURE_REPO, "src", "app.ts");

async function appCodes(table: Record<string, unknown>): Promise<string[]> {
  const set = await loadRuleSet(FIXTURE_REPO, table);
  equal(set.errors.length, 0, JSON.stringify(set.errors));
  const file = { path: APP, language: "typescript" as const, text: await Deno.readTextFile(APP) };
  return (await lintWithRules(set, file)).map((d) => `${d.code}:${d.severity}`);
}

Deno.test("overrides: severity off and enabled = false drop the rule from the diagnostics", async () => {
  const base = await appCodes({});
  equal(base.includes("ts-no-eval:warning"), true);
  equal(base.includes("ts-no-debugger:error"), true);
  const off = await appCodes({
    overrides: { "ts-no-eval": { severity: "off" }, "ts-no-debugger": { enabled: false } },
  });
  deepEqual(off, base.filter((c) => c !== "ts-no-eval:warning" && c !== "ts-no-debugger:error"));
});

Deno.test("overrides: a severity change is what the diagnostics carry", async () => {
  const codes = await appCodes({
    overrides: { "ts-no-eval": { severity: "error" }, "ts-no-debugger": { severity: "hint" } },
  });
  equal(codes.includes("ts-no-eval:error"), true);
  equal(codes.includes("ts-no-debugger:hint"), true);
});

Deno.test("overrides: extra ignores skip matching files only", async () => {
  const codes = await appCodes({ overrides: { "ts-console-log-in-library": { ignores: ["src/app.ts"] } } });
  equal(codes.some((c) => c.startsWith("ts-console-log-in-library")), false);
  // The JavaScript rule of the same check is another rule: its files are not ignored.
  const set = await loadRuleSet(FIXTURE_REPO, {
    overrides: { "ts-console-log-in-library": { ignores: ["src/app.ts"] } },
  });
  const widget = join(FIXTURE_REPO, "src", "widget.jsx");
  const other = await lintWithRules(set, {
    path: widget,
    language: "javascript",
    text: await Deno.readTextFile(widget),
  });
  equal(other.some((d) => d.code === "js-console-log-in-library"), true);
});

Deno.test("overrides: the rule list shows default and resolved severity and enabled", async () => {
  const set = await loadRuleSet(FIXTURE_REPO, {
    overrides: {
      "js-no-eval": { severity: "error" },
      "py-bare-except": { enabled: false },
      "no-alert": { severity: "off" },
    },
  });
  const pick = (id: string) => {
    const r = set.rules.find((x) => x.id === id)!;
    return [r.defaultSeverity, r.severity, r.enabled, r.origin];
  };
  deepEqual(pick("js-no-eval"), ["warning", "error", true, "builtin"]);
  deepEqual(pick("py-bare-except"), ["warning", "off", false, "builtin"]);
  deepEqual(pick("no-alert"), ["info", "off", false, "user"]);
  deepEqual(pick("js-no-debugger"), ["error", "error", true, "builtin"]);
});

Deno.test("RulesTable is strict: unknown keys in [rules] and in an override are refused", () => {
  equal(RulesTable.safeParse({ dir: ["x"] }).success, false);
  equal(RulesTable.safeParse({ overrides: { x: { level: "off" } } }).success, false);
  deepEqual(RulesTable.parse({}), { dirs: [".poly/rules"], builtin: true, overrides: {} });
});
