import assert, { equal } from "node:assert/strict";
import { shfmt, shfmtDialect } from "../../lib/engines/shfmt/mod.ts";
import { quotedBackquoteEscape } from "../../lib/engines/shfmt/_backquotes.ts";
import { EngineRefusal, type SourceFile } from "../../lib/engines/types.ts";
import {
  fixture,
  formatCrashTest,
  formatGoldenTests,
  formatSyntaxErrorTest,
  missing,
  native,
  settings,
} from "./_harness.ts";

formatGoldenTests(shfmt, [
  { fixture: "shfmt/unformatted.sh", language: "shell" },
]);
formatSyntaxErrorTest(shfmt, { fixture: "shfmt/syntax.sh", language: "shell" }, { line: 2, column: 1 });

Deno.test("shfmt format() honours indent_width and the tool's flags", async () => {
  const file = await fixture("shfmt/unformatted.sh", "shell");
  const engine = await shfmt.load();
  const four = await engine.format!(file, settings({}, { indent_width: 4 }));
  equal(four.includes("\n    greet"), true);
  const tabs = await engine.format!(file, settings({ indent: 0, func_next_line: true }));
  equal(tabs.includes("greet()\n{"), true);
  equal(tabs.includes("\n\tgreet"), true);
});

Deno.test({
  name: "shfmt format() equals the native shfmt",
  ignore: await missing("shfmt", "shfmt parity"),
  async fn() {
    const file = await fixture("shfmt/unformatted.sh", "shell");
    const ours = await (await shfmt.load()).format!(file, settings());
    equal(ours, await native("shfmt", ["-filename", "unformatted.sh"], file.text));
    const four = await (await shfmt.load()).format!(file, settings({}, { indent_width: 4 }));
    equal(four, await native("shfmt", ["-i", "4", "-filename", "unformatted.sh"], file.text));
  },
});

const file = (relPath: string, text: string): SourceFile => ({
  path: `/x/${relPath}`,
  relPath,
  language: "shell",
  text,
});

Deno.test("shfmtDialect() reads a file's dialect as shfmt's command line does: name, then shebang, else bash", () => {
  equal(shfmtDialect("t.bats", ""), "bats");
  equal(shfmtDialect("x.mksh", "#!/bin/bash\n"), "mksh");
  equal(shfmtDialect(".bashrc", ""), "bash");
  equal(shfmtDialect("x.sh", "#!/bin/sh\n"), "posix");
  equal(shfmtDialect("x.sh", "#! /usr/bin/env bats\n"), "bats");
  equal(shfmtDialect("tool", "#!/usr/bin/env bash\n"), "bash");
  equal(shfmtDialect("x.sh", "echo\n"), "bash");
});

Deno.test("shfmt format() takes the .editorconfig options for the file's dialect, poly.toml's keys over them", async () => {
  const engine = await shfmt.load();
  const editorconfig = { shell: { indent: 2 }, bash: { indent: 4, switch_case_indent: true } };
  const text = "case $1 in\na) echo a ;;\nesac\nif true; then\necho b\nfi\n";
  const posix = await engine.format!(file("x.sh", "#!/bin/sh\n" + text), settings({ editorconfig }));
  equal(posix, "#!/bin/sh\ncase $1 in\na) echo a ;;\nesac\nif true; then\n  echo b\nfi\n");
  const bash = await engine.format!(file("x.sh", text), settings({ editorconfig }));
  equal(bash, "case $1 in\n    a) echo a ;;\nesac\nif true; then\n    echo b\nfi\n");
  const own = await engine.format!(file("x.sh", text), settings({ editorconfig, indent: 0 }));
  equal(own, "case $1 in\n\ta) echo a ;;\nesac\nif true; then\n\techo b\nfi\n");
});

Deno.test("shfmt format() parses in the dialect shell_variant names", async () => {
  const engine = await shfmt.load();
  // `|&` ending a command starts a coprocess in mksh; bash wants a command after it.
  const text = "worker |&\n";
  await assert.rejects(async () => await engine.format!(file("x.sh", text), settings()));
  equal(await engine.format!(file("x.sh", text), settings({ shell_variant: "mksh" })), text);
  await assert.rejects(
    async () => await engine.format!(file("x.sh", text), settings({ shell_variant: "dash" })),
    /shell_variant/,
  );
});

formatCrashTest(
  shfmt,
  "shell",
  `x=${"$(".repeat(20000)}echo${")".repeat(20000)}\n`,
  "if [ -f x ];then\necho y\nfi\n",
  "if [ -f x ]; then\n\techo y\nfi\n",
);

Deno.test("shfmt format() leaves a script alone where writing its quoted backquotes as $( ) would change what it runs", async () => {
  const engine = await shfmt.load();
  const file = (text: string): SourceFile => ({ path: "/r/gradlew", relPath: "gradlew", language: "shell", text });
  // Gradle's gradlew before 7.0: inside double quotes, \" in backquotes is a plain quote; in $( ) a literal one.
  const gradlew = '#!/bin/sh\nPRG="$0"\nSAVED="`pwd`"\ncd "`dirname \\"$PRG\\"`/" >/dev/null\n';
  await assert.rejects(
    async () => await engine.format!(file(gradlew), settings({})),
    (e: unknown) => e instanceof EngineRefusal && /shfmt would change what line 4 runs/.test(e.message),
  );
  // Outside double quotes the backslash stays in both forms: formatted.
  const plain = '#!/bin/sh\nx=`echo \\"a\\"`\ny=`dirname "$0"`\n';
  equal(await engine.format!(file(plain), settings({})), '#!/bin/sh\nx=$(echo \\"a\\")\ny=$(dirname "$0")\n');
});

Deno.test('quotedBackquoteEscape() finds backquotes inside double quotes holding \\", past quotes, comments and here-documents', () => {
  equal(quotedBackquoteEscape('a="`echo \\"x\\"`"\n'), 1);
  equal(quotedBackquoteEscape('# "`echo \\"x\\"`"\necho "$(printf \'%s\' "`echo \\"y\\"`")"\n'), 2);
  equal(quotedBackquoteEscape('echo \'"`echo \\"x\\"`"\'\n'), undefined); // single-quoted: no substitution
  equal(quotedBackquoteEscape('cat <<EOF\n"`echo \\"x\\"`"\nEOF\necho "`echo \\"z\\"`"\n'), 4);
  equal(quotedBackquoteEscape('cat <<-\'END\'\n\t"`a \\"b\\"`"\n\tEND\n'), undefined);
  equal(quotedBackquoteEscape('x="`echo \\$HOME`" y=`echo \\"q\\"`\n'), undefined);
  equal(quotedBackquoteEscape("no backquotes at all\n"), undefined);
});
