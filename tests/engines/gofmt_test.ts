import { equal } from "node:assert/strict";
import { gofmt } from "../../lib/engines/gofmt/mod.ts";
import {
  fixture,
  formatCrashTest,
  formatGoldenTests,
  formatSyntaxErrorTest,
  missing,
  native,
  settings,
} from "./_harness.ts";

formatGoldenTests(gofmt, [{ fixture: "gofmt/unformatted.go", language: "go" }]);
formatSyntaxErrorTest(gofmt, { fixture: "gofmt/syntax.go", language: "go" }, { line: 4, column: 17 });

Deno.test({
  name: "gofmt format() equals the native gofmt",
  ignore: await missing("gofmt", "gofmt parity"),
  async fn() {
    const file = await fixture("gofmt/unformatted.go", "go");
    const ours = await (await gofmt.load()).format!(file, settings());
    equal(ours, await native("gofmt", [], file.text));
  },
});

Deno.test("gofmt format() honours line_ending crlf and final_newline false", async () => {
  const file = await fixture("gofmt/unformatted.go", "go");
  const out = await (await gofmt.load()).format!(file, settings({}, { line_ending: "crlf", final_newline: false }));
  equal(out.includes("\r\n"), true);
  equal(out.replace(/\r\n/g, "").includes("\n"), false);
  equal(out.endsWith("\n"), false);
});

formatCrashTest(
  gofmt,
  "go",
  `package main\n\nvar x = ${"(".repeat(100000)}1${")".repeat(100000)}\n`,
  "package main\nvar  y = 1\n",
  "package main\n\nvar y = 1\n",
);
