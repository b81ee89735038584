import { equal } from "node:assert/strict";
import { clangFormat, formatDisabled } from "../../lib/engines/clang_format/mod.ts";
import { engineError, fixture, formatCrashTest, formatGoldenTests, settings } from "./_harness.ts";

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

// Parentheses nested a thousand deep take the WebAssembly build's memory out of bounds, twice.
const DEEP = `int  x = ${"(".repeat(1000)}1${")".repeat(1000)};\n`;

formatCrashTest(clangFormat, "cpp", DEEP, "int  a;\n", "int a;\n");

Deno.test("clang-format: a style whose every document sets DisableFormat gives the text back without formatting it", async () => {
  const engine = await clangFormat.load();
  const deep = { path: "/x/deep.cc", relPath: "deep.cc", language: "cpp" as const, text: DEEP };
  const native = (styles: Record<string, unknown>[]) => ({
    ...settings(),
    native: { files: [{ path: "/x/.clang-format", hash: "" }], options: { styles }, root: "/x" },
  });
  equal(await engine.format!(deep, native([{ DisableFormat: true, SortIncludes: "Never" }])), deep.text);
  equal(formatDisabled(native([{ DisableFormat: true }, { Language: "Cpp", DisableFormat: false }])), false);
  equal(formatDisabled({ ...native([{ DisableFormat: true }]), tool: { DisableFormat: false } }), false);
  equal(formatDisabled(settings({ DisableFormat: true })), true);
  const plain = {
    path: "/x/a.cc",
    relPath: "a.cc",
    language: "cpp" as const,
    text: '#include "b.h"\n#include "a.h"\nint  a;\n',
  };
  equal(await engine.format!(plain, native([{ DisableFormat: true }])), plain.text);
});

Deno.test("cHeaderAsC(): a .h header is C where the repository's .clang-format has a C document and none for C++", async () => {
  const { cHeaderAsC } = await import("../../lib/engines/clang_format/mod.ts");
  const under = (...styles: Record<string, unknown>[]) => ({
    ...settings(),
    native: { files: [], options: { styles }, root: "/r" },
  });
  equal(cHeaderAsC("a.h", under({ BasedOnStyle: "LLVM", Language: "C" })), "a.c");
  equal(cHeaderAsC("a.h", under({ Language: "C" }, { Language: "Cpp" })), "a.h");
  equal(cHeaderAsC("a.h", under({ Language: "C" }, { IndentWidth: 8 })), "a.h"); // a document without Language is C++'s
  equal(cHeaderAsC("a.hpp", under({ Language: "C" })), "a.hpp"); // clang-format's command line refuses it too
  equal(cHeaderAsC("a.h", settings()), "a.h");
  // As clang-format 23.1's command line formats it: the C document's 4 spaces.
  const text = "struct s {\n    int a;\n};\n";
  equal(
    await (await clangFormat.load()).format!({ path: "/r/a.h", relPath: "a.h", language: "c", text }, {
      ...under({ BasedOnStyle: "LLVM", IndentWidth: 4, Language: "C" }),
    }),
    text,
  );
});
