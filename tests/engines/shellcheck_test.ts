import { deepEqual, equal } from "node:assert/strict";
import { inProcessWith } from "../_helpers/isolated.ts";
import { join } from "node:path";
import { assertGolden } from "../_helpers/cli.ts";
import { shellcheck } from "../../lib/engines/shellcheck/mod.ts";
import { diagnosticsJson, engineError, fixture, GOLDEN, missing, settings } from "./_harness.ts";

const absent = await missing("shellcheck", "shellcheck engine tests");

Deno.test({
  name: "shellcheck lint() matches the golden diagnostics",
  ignore: absent,
  async fn() {
    const file = await fixture("shellcheck/bad.sh", "shell");
    const out = await (await shellcheck.load()).lint!(file, settings());
    await assertGolden(join(GOLDEN, "shellcheck", "bad.sh.json"), diagnosticsJson(out.diagnostics));
  },
});

Deno.test({
  name: "shellcheck fix() applies its fixes and the result matches the golden text",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load();
    const file = await fixture("shellcheck/bad.sh", "shell");
    const out = await engine.fix!(file, settings());
    equal(out.fixed > 0, true);
    await assertGolden(join(GOLDEN, "shellcheck", "bad.sh.fixed"), out.text);
    const again = await engine.lint!({ ...file, text: out.text }, settings());
    equal(again.diagnostics.filter((d) => d.fix).length, 0);
  },
});

Deno.test({
  name: "shellcheck lint() honours ignore and rules levels",
  ignore: absent,
  async fn() {
    const file = await fixture("shellcheck/bad.sh", "shell");
    const engine = await shellcheck.load();
    const out = await engine.lint!(file, settings({ ignore: ["SC2086"], rules: { SC2045: { level: "warning" } } }));
    equal(out.diagnostics.some((d) => d.code === "SC2086"), false);
    equal(out.diagnostics.find((d) => d.code === "SC2045")?.severity, "warning");
  },
});

Deno.test({
  name: "shellcheck lint() throws EngineError with line and column on a syntax error",
  ignore: absent,
  async fn() {
    const file = await fixture("shellcheck/syntax.sh", "shell");
    const error = await engineError(async () => await (await shellcheck.load()).lint!(file, settings()));
    equal(error.line, 2);
    equal(typeof error.column, "number");
  },
});

Deno.test("shellcheck lint() is unavailable, not clean, when shellcheck is not on PATH", async () => {
  // In a process of its own: emptying PATH here would reach every test module running beside this one.
  const result = await inProcessWith(
    { PATH: "/nonexistent" },
    `
    const { shellcheck } = await import(REPO + "/lib/engines/shellcheck/mod.ts");
    const text = await Deno.readTextFile(REPO + "/fixtures/engines/shellcheck/bad.sh");
    const file = { path: "/x/bad.sh", relPath: "bad.sh", language: "shell", text };
    const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {} };
    try {
      await (await shellcheck.load()).lint(file, settings);
      console.log(JSON.stringify({ name: "none" }));
    } catch (e) {
      console.log(JSON.stringify({ name: e.name, message: e.message }));
    }
  `,
  );
  deepEqual(result, { name: "EngineUnavailableError", message: "shellcheck not found on PATH" });
});

Deno.test({
  name: "shellcheck lintMany() checks many files in one process per dialect with per-file results",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load() as unknown as {
      lintMany(files: unknown[], s: unknown): Promise<({ diagnostics: { code?: string }[] } | Error)[]>;
    };
    const bad = await fixture("shellcheck/bad.sh", "shell");
    const syntax = await fixture("shellcheck/syntax.sh", "shell");
    const lib = { ...bad, relPath: "lib.sh", text: "echo $1\n" };
    const results = await engine.lintMany([bad, syntax, lib, bad], settings());
    const single = await (await shellcheck.load()).lint!(bad, settings());
    equal(JSON.stringify(results[0]), JSON.stringify(single));
    equal(results[1] instanceof Error, true);
    const libCodes = (results[2] as { diagnostics: { code?: string }[] }).diagnostics.map((d) => d.code);
    equal(
      libCodes.join(),
      "SC2148,SC2086",
      "a .sh file without a shebang is checked as shellcheck checks it: SC2148, then as bash",
    );
    equal(JSON.stringify(results[3]), JSON.stringify(results[0]));
  },
});

Deno.test({
  name: "shellcheck lintMany() splits a large group across processes and gives each file its own result",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load();
    const bad = await fixture("shellcheck/bad.sh", "shell");
    const syntax = await fixture("shellcheck/syntax.sh", "shell");
    // 100 files of one dialect (more than one process's share on a machine with two cores or more).
    const files = Array.from(
      { length: 100 },
      (_, i) =>
        i % 10 === 3
          ? { ...syntax, relPath: `s${i}.sh` }
          : { ...bad, relPath: `f${i}.sh`, text: i % 2 ? bad.text : `#!/bin/sh\necho $${i % 9}\n` },
    );
    const many = await engine.lintMany!(files, settings());
    const single = await Promise.all(
      files.map((f) => Promise.resolve(engine.lint!(f, settings())).catch((e: Error) => e)),
    );
    equal(many.length, files.length);
    many.forEach((result, i) => {
      equal(result instanceof Error, single[i] instanceof Error, files[i].relPath);
      equal(
        JSON.stringify(result instanceof Error ? result.message : result),
        JSON.stringify(
          single[i] instanceof Error ? (single[i] as Error).message : single[i],
        ),
        files[i].relPath,
      );
    });
  },
});

Deno.test({
  name: "shellcheck lint() batches calls made together and keeps results apart",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load();
    const bad = await fixture("shellcheck/bad.sh", "shell");
    const clean = { ...bad, relPath: "ok.sh", text: '#!/bin/sh\necho "$1"\n' };
    const [a, b] = await Promise.all([engine.lint!(bad, settings()), engine.lint!(clean, settings())]);
    equal(a.diagnostics.length > 0, true);
    equal(b.diagnostics.length, 0);
  },
});

Deno.test({
  name: "shellcheck: a .sh file without a shebang is checked as shellcheck's command line checks it (SC2148, bash)",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load();
    const text = 'f() {\n  local x=1\n  [[ $x == 1 ]] && echo "$x"\n}\n';
    const file = { path: "/tmp/common.sh", relPath: "common.sh", language: "shell" as const, text };
    deepEqual((await engine.lint!(file, settings())).diagnostics.map((d) => d.code), ["SC2148"]);
    const [batched] = await engine.lintMany!([file], settings());
    deepEqual((batched as { diagnostics: { code?: string }[] }).diagnostics.map((d) => d.code), ["SC2148"]);
  },
});

Deno.test({
  name: "shellcheck: a script that does not parse reports every finding shellcheck made, its parse error first",
  ignore: absent,
  async fn() {
    const engine = await shellcheck.load();
    // An ERB template saved as .sh (seen in a public repository): shellcheck stops parsing at line 2.
    const text = 'A= B=1\nunset <%= LIST.join(" ") %>\necho "$A"\n';
    const file = { path: "/tmp/pe.sh", relPath: "pe.sh", language: "shell" as const, text };
    const error = await engineError(() => engine.lint!(file, settings()));
    const diagnostics = (error as unknown as { diagnostics: { code?: string }[] }).diagnostics;
    equal(diagnostics[0].code, "SC1036");
    deepEqual(
      diagnostics.map((d) => d.code).sort(),
      ["SC1007", "SC1036", "SC1088", "SC2034", "SC2034", "SC2148"],
      "the codes shellcheck -f json1 reports for this script",
    );
  },
});

Deno.test("shellcheck's arguments: the pre-commit hook's flags, then poly.toml's, so poly.toml's severity wins", async () => {
  const { shellcheckArgs } = await import("../../lib/engines/shellcheck/mod.ts");
  const hooked = {
    ...settings({ severity: "style", ignore: ["SC2086"] }),
    native: {
      files: [],
      root: "/r",
      options: {
        hook: {
          severity: "warning",
          include: [],
          exclude: ["SC2034"],
          enable: ["all"],
          sourcePath: ["SCRIPTDIR"],
          externalSources: true,
        },
      },
    },
  };
  deepEqual(shellcheckArgs(hooked, "bash"), [
    "-f",
    "json1",
    "--norc",
    "--shell=bash",
    "--external-sources",
    "--source-path=SCRIPTDIR",
    "--severity=warning",
    "--enable=all",
    "--exclude=2034",
    "--severity=style",
    "--exclude=2086",
  ]);
});
