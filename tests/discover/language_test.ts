import { equal } from "node:assert/strict";
import { detectLanguage, languageOfShebang, needsShebang } from "../../lib/discover/mod.ts";
import type { Language } from "../../lib/engines/types.ts";

const BY_PATH: [string, Language][] = [
  ["a.py", "python"],
  ["stubs/a.pyi", "python"],
  ["a.js", "javascript"],
  ["a.mjs", "javascript"],
  ["a.cjs", "javascript"],
  ["a.jsx", "javascript"],
  ["a.ts", "typescript"],
  ["a.d.ts", "typescript"],
  ["a.mts", "typescript"],
  ["a.cts", "typescript"],
  ["a.tsx", "typescript"],
  ["a.json", "json"],
  ["tsconfig.jsonc", "json"],
  ["a.css", "css"],
  ["a.graphql", "graphql"],
  ["a.gql", "graphql"],
  ["a.go", "go"],
  ["a.sh", "shell"],
  ["a.bash", "shell"],
  ["a.zsh", "unknown"],
  ["a.fish", "unknown"],
  ["Cargo.toml", "toml"],
  ["a.md", "markdown"],
  ["a.markdown", "markdown"],
  ["a.yaml", "yaml"],
  ["a.yml", "yaml"],
  ["Dockerfile", "dockerfile"],
  ["Dockerfile.dev", "dockerfile"],
  // An extension that names a language wins over the Dockerfile prefix (dprint's docs: website/src/plugins/dockerfile.md).
  ["docs/dockerfile.md", "markdown"],
  ["Containerfile.yaml", "yaml"],
  ["api.dockerfile", "dockerfile"],
  ["Containerfile", "dockerfile"],
  ["a.c", "c"],
  ["a.h", "c"],
  ["a.cc", "cpp"],
  ["a.cpp", "cpp"],
  ["a.cxx", "cpp"],
  ["a.hpp", "cpp"],
  ["a.hh", "cpp"],
  ["A.java", "java"],
  ["a.proto", "protobuf"],
  ["a.sql", "sql"],
  ["a.lua", "lua"],
  ["a.php", "php"],
  ["a.html", "html"],
  ["a.htm", "html"],
  ["a.vue", "vue"],
  ["a.svelte", "svelte"],
  ["a.astro", "astro"],
  ["a.rs", "rust"],
  ["a.zig", "zig"],
  ["a.rb", "ruby"],
  ["Gemfile", "ruby"],
  ["a.kt", "kotlin"],
  ["a.swift", "swift"],
  ["a.cs", "csharp"],
  ["a.scala", "scala"],
  ["Pipfile", "toml"],
  [".bashrc", "shell"],
  [".profile", "shell"],
  // Configuration files prettier formats by name, as it names their languages.
  [".babelrc", "json"],
  ["pkg/.nycrc", "json"],
  [".eslintrc", "yaml"],
  [".prettierrc", "unknown"],
  ["CITATION.cff", "yaml"],
  ["pixi.lock", "unknown"],
  [".zshrc", "unknown"],
  ["Makefile", "unknown"],
  ["Jenkinsfile", "unknown"],
  ["A.PY", "python"],
  ["deep/dir.py/file", "unknown"],
  ["config.yaml.j2", "unknown"],
  ["LICENSE", "unknown"],
];

Deno.test("detectLanguage() maps extensions and well-known names", () => {
  for (const [path, language] of BY_PATH) equal(detectLanguage(path), language, path);
});

Deno.test("detectLanguage() reads shebangs only for names that say nothing", () => {
  equal(detectLanguage("bin/tool", "#!/usr/bin/env python3"), "python");
  equal(detectLanguage("tool.rb", "#!/usr/bin/env python3"), "ruby");
  equal(detectLanguage("bin/tool", "print('no shebang')"), "unknown");
});

Deno.test("languageOfShebang() understands env, flags, assignments and versions", () => {
  const cases: [string, Language | undefined][] = [
    ["#!/usr/bin/env python3", "python"],
    ["#!/usr/bin/python3.12 -u", "python"],
    ["#!/usr/bin/env pypy3", "python"],
    ["#!/bin/bash", "shell"],
    ["#!/bin/sh -e", "shell"],
    ["#! /usr/bin/env dash", "shell"],
    ["#!/usr/bin/env node", "javascript"],
    ["#!/usr/bin/env -S deno run --allow-read", "typescript"],
    ["#!/usr/bin/env bun", "typescript"],
    ["#!/usr/bin/env -S NODE_OPTIONS=--x node", "javascript"],
    ["#!/usr/bin/env ruby", "ruby"],
    ["#!/usr/bin/zsh", undefined],
    ["#!/usr/bin/env fish", undefined],
    ["# just a comment", undefined],
  ];
  for (const [line, language] of cases) equal(languageOfShebang(line), language, line);
});

Deno.test("needsShebang() is true only for extensionless unknown names", () => {
  equal(needsShebang("bin/tool"), true);
  equal(needsShebang("bin/.envrc"), true);
  equal(needsShebang("bin/tool.txt"), false);
  equal(needsShebang("Dockerfile"), false);
  equal(needsShebang("a.py"), false);
});

Deno.test("detectLanguage() takes Bats test files as shell, by extension and by shebang", () => {
  equal(detectLanguage("test/run.bats"), "shell");
  equal(detectLanguage("test/run", "#!/usr/bin/env bats"), "shell");
});
