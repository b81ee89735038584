import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { discover } from "../../lib/discover/mod.ts";
import { describe, fixtureTree, IS_ROOT, makeTree } from "./_tree.ts";
import { tempDir } from "../_helpers/temp.ts";

Deno.test("discover() honours .gitignore at every level, with deeper negations", async () => {
  const root = await fixtureTree("basic");
  const found = describe(await discover({ cwd: root, paths: [] }));
  deepEqual(found, [
    "README.md markdown",
    "app.py python",
    "bin/run typescript",
    "bin/tool python",
    "pkg/index.ts typescript",
    "pkg/keep.tmp.py python",
    "pkg/out/keep.py python",
    "web/Dockerfile dockerfile",
    "web/style.css css",
  ]);
});

Deno.test("discover() applies parent .gitignore files when started in a subdirectory", async () => {
  const root = await fixtureTree("basic");
  await Deno.mkdir(join(root, ".git", "info"), { recursive: true });
  const found = describe(await discover({ cwd: join(root, "pkg"), paths: [] }));
  deepEqual(found, ["index.ts typescript", "keep.tmp.py python", "out/keep.py python"]);
});

Deno.test("discover() honours .git/info/exclude at the repository root", async () => {
  const root = await makeTree({
    ".git/info/exclude": "private/\n",
    "private/a.py": "",
    "public/b.py": "",
    ".git/HEAD": "",
  });
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["public/b.py python"]);
  // Started below the root, the repository's exclude file still applies.
  deepEqual(describe(await discover({ cwd: root, paths: ["private/a.py", "public"] })), [
    "private/a.py python (explicit)",
    "public/b.py python",
  ]);
});

Deno.test("discover() never walks .git and returns unknown files only when asked", async () => {
  const root = await makeTree({ ".git/config.py": "", "LICENSE": "MIT", "a.py": "" });
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["a.py python"]);
  deepEqual(describe(await discover({ cwd: root, paths: [], includeUnknown: true })), [
    "LICENSE unknown",
    "a.py python",
  ]);
});

Deno.test("discover() includes explicitly named files even when gitignored or of unknown language", async () => {
  const root = await fixtureTree("basic");
  const found = describe(await discover({ cwd: root, paths: ["secret.py", "out/gen.py", "LICENSE", "app.py"] }));
  deepEqual(found, [
    "LICENSE unknown (explicit)",
    "app.py python (explicit)",
    "out/gen.py python (explicit)",
    "secret.py python (explicit)",
  ]);
});

Deno.test("discover() turns ignored explicit paths into skips under force_exclude", async () => {
  const root = await fixtureTree("basic");
  const found = describe(
    await discover({
      cwd: root,
      paths: ["secret.py", "out", "app.py"],
      configFor: () => Promise.resolve({ excludes: [], forceExclude: true }),
    }),
  );
  deepEqual(found, [
    "app.py python (explicit)",
    'out skip: excluded by "/out/" in .gitignore ([discovery] force_exclude)',
    'secret.py skip: excluded by "secret.py" in .gitignore ([discovery] force_exclude)',
  ]);
});

Deno.test("discover() reports a named path that does not exist as an error record", async () => {
  const root = await makeTree({ "a.py": "" });
  deepEqual(describe(await discover({ cwd: root, paths: ["missing.py", "a.py"] })), [
    "a.py python (explicit)",
    "missing.py error: path does not exist",
  ]);
});

Deno.test("discover() returns one record per path, explicit winning, sorted by relPath", async () => {
  const root = await makeTree({ "b/z.py": "", "b/a.ts": "", "a.py": "", "B.py": "" });
  const found = describe(await discover({ cwd: root, paths: ["b", "./b/z.py", ".", "b/"] }));
  deepEqual(found, ["B.py python", "a.py python", "b/a.ts typescript", "b/z.py python (explicit)"]);
});

Deno.test("discover() keeps paths outside cwd as they were given", async () => {
  const outside = await makeTree({ "lib/x.py": "" });
  const cwd = await makeTree({ "a.py": "" });
  const given = join(outside, "lib");
  const found = await discover({ cwd, paths: [given, "a.py"] });
  deepEqual(found.map((r) => r.relPath), [`${given}/x.py`, "a.py"]);
  equal(found[0].path, join(outside, "lib", "x.py"));
  const relative = await discover({ cwd, paths: [`../${outside.split("/").pop()}/lib/`] });
  deepEqual(relative.map((r) => r.relPath), [`../${outside.split("/").pop()}/lib/x.py`]);
});

Deno.test("discover() detects languages by shebang for extensionless files only", async () => {
  const root = await makeTree({
    "bin/a": "#!/bin/bash\necho\n",
    "bin/b": "#!/usr/bin/env node\n",
    "bin/c": "#!/usr/bin/zsh\n",
    "bin/d.txt": "#!/usr/bin/env python3\n",
  });
  deepEqual(describe(await discover({ cwd: root, paths: [], includeUnknown: true })), [
    "bin/a shell",
    "bin/b javascript",
    "bin/c unknown",
    "bin/d.txt unknown",
  ]);
});

Deno.test("discover() stops with the signal's reason when aborted", async () => {
  const root = await makeTree({ "a.py": "" });
  const controller = new AbortController();
  controller.abort(new Error("cancelled by the caller"));
  let message = "";
  try {
    await discover({ cwd: root, paths: [], signal: controller.signal });
  } catch (error) {
    message = (error as Error).message;
  }
  equal(message, "cancelled by the caller");
});

Deno.test({
  name: "discover() reports an unreadable directory as an error record" +
    (IS_ROOT ? " (skipped: running as root, permission bits do not stop root)" : ""),
  ignore: IS_ROOT,
  fn: async () => {
    const root = await makeTree({ "locked/a.py": "", "b.py": "" });
    await Deno.chmod(join(root, "locked"), 0o000);
    try {
      deepEqual(describe(await discover({ cwd: root, paths: [] })), [
        "b.py python",
        "locked error: cannot read directory: permission denied",
      ]);
    } finally {
      await Deno.chmod(join(root, "locked"), 0o755);
    }
  },
});

Deno.test("discover() a deeper .gitignore can re-include a directory a parent ignored", async () => {
  const root = await makeTree({
    ".gitignore": "generated/\n",
    "generated/a.py": "",
    "pkg/.gitignore": "!generated/\n",
    "pkg/generated/b.py": "",
  });
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["pkg/generated/b.py python"]);
});

Deno.test("discover() walks an explicitly named gitignored directory, still applying rules inside it", async () => {
  const root = await makeTree({
    ".gitignore": "out/\n*.tmp.py\n",
    "out/a.py": "",
    "out/b.tmp.py": "",
    "out/out/c.py": "",
  });
  deepEqual(describe(await discover({ cwd: root, paths: ["out"] })), ["out/a.py python"]);
});

Deno.test("discover() names each language once, as the walk first finds it", async () => {
  const root = await tempDir({ prefix: "poly-onlang-" });
  await Deno.mkdir(join(root, "a", "b"), { recursive: true });
  for (const f of ["a/x.py", "a/y.py", "a/b/z.ts", "w.ts", "README.unknownext"]) {
    await Deno.writeTextFile(join(root, f), "x\n");
  }
  const seen: string[] = [];
  await discover({ cwd: root, paths: [], onLanguage: (language) => seen.push(language) });
  deepEqual([...seen].sort(), ["python", "typescript"]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("discover() lists template-dialect files (.j2, .tmpl, ...) as skips with the reason on every walk", async () => {
  const root = await makeTree({
    ".gitignore": "ignored.j2\n",
    "a.py": "",
    "deploy/config.yaml.j2": "a: {{ x }}\n",
    "site/page.tmpl": "<p>{{ .Title }}</p>\n",
    "charts/x.gotmpl": "",
    "ignored.j2": "",
    "LICENSE": "MIT",
  });
  const reason = (ext: string) => `template file (${ext}): left alone by every engine`;
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    "a.py python",
    `charts/x.gotmpl skip: ${reason(".gotmpl")}`,
    `deploy/config.yaml.j2 skip: ${reason(".j2")}`,
    `site/page.tmpl skip: ${reason(".tmpl")}`,
  ]);
  // Named, the same skip and reason.
  deepEqual(describe(await discover({ cwd: root, paths: ["deploy/config.yaml.j2"] })), [
    `deploy/config.yaml.j2 skip: ${reason(".j2")}`,
  ]);
});

Deno.test("discover() lists Jupyter notebooks as skips with the reason, walked or named, unless ignored", async () => {
  const root = await makeTree({
    ".gitignore": "scratch.ipynb\n",
    "a.py": "",
    "docs/Tour.IPYNB": "{}",
    "docs/intro.ipynb": "{}",
    "scratch.ipynb": "{}",
  });
  const reason = "Jupyter notebook: no engine reads one (ruff's WebAssembly build parses no IPython syntax nor cells)";
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    "a.py python",
    `docs/Tour.IPYNB skip: ${reason}`,
    `docs/intro.ipynb skip: ${reason}`,
  ]);
  deepEqual(describe(await discover({ cwd: root, paths: ["docs/intro.ipynb"] })), [`docs/intro.ipynb skip: ${reason}`]);
});

Deno.test("discover() leaves a Go module's vendor/ (with modules.txt) and testdata/ alone, as the go tool's ./... does", async () => {
  const root = await makeTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    "go.mod": "module m\n\ngo 1.20\n",
    "main.go": "package main\n",
    "vendor/modules.txt": "# example.com/x v1.0.0\n## explicit\nexample.com/x\n",
    "vendor/example.com/x/x.go": "package x\n",
    "pkg/p.go": "package p\n",
    "pkg/testdata/in.go": "package p\n",
    "pkg/testdata/golden.json": "{}\n",
    "tools/vendor/v.go": "package v\n", // not the module's vendor/
  });
  deepEqual(describe(await discover({ cwd: root, paths: [] })), ["main.go go", "pkg/p.go go", "tools/vendor/v.go go"]);
  // Started below the module, the go.mod above still counts; a .gitignore beside it can take testdata/ back.
  deepEqual(describe(await discover({ cwd: join(root, "pkg"), paths: [] })), ["p.go go"]);
  await Deno.writeTextFile(join(root, ".gitignore"), "!testdata/\n");
  deepEqual(describe(await discover({ cwd: root, paths: [] })), [
    "main.go go",
    "pkg/p.go go",
    "pkg/testdata/golden.json json",
    "pkg/testdata/in.go go",
    "tools/vendor/v.go go",
  ]);
  // Without modules.txt, vendor/ is a folder like another.
  await Deno.remove(join(root, "vendor/modules.txt"));
  ok(describe(await discover({ cwd: root, paths: [] })).includes("vendor/example.com/x/x.go go"));
});
