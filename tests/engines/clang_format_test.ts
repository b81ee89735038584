import { equal } from "node:assert/strict";
import { clangFormat } from "../../lib/engines/clang_format/mod.ts";
import { engineError, fixture, formatGoldenTests, settings } from "./_harness.ts";

formatGoldenTests(clangFormat, [
  { fixture: "clang-format/unformatted.c", language: "c" },
  { fixture: "clang-format/unformatted.cpp", language: "cpp" },
  { fixture: "clang-format/unformatted.java", language: "java" },
  { fixture: "clang-format/unformatted.proto", language: "protobuf" },
]);

Deno.test("clang-format format() honours style, indent_width and options", async () => {
  const engine = await clangFormat.load();
  const file = await fixture("clang-format/unformatted.c", "c");
  const google = await engine.format!(file, settings({ style: "Google" }, { indent_width: 4 }));
  equal(google.includes("\n    for (int i = 0; i < 3; i++) {"), true, google);
  const narrow = await engine.format!(file, settings({ AllowShortFunctionsOnASingleLine: "None" }));
  equal(narrow.includes("int add(int a, int b) {\n  return a + b;\n}"), true, narrow);
});

Deno.test("clang-format format() never rejects broken code but rejects a bad style", async () => {
  const engine = await clangFormat.load();
  const broken = { path: "/x/a.c", relPath: "a.c", language: "c" as const, text: "int main( {\n" };
  equal(typeof await engine.format!(broken, settings()), "string");
  await engineError(() => engine.format!(broken, settings({ style: "NoSuchStyle" })));
});
