/**
 * lib/engines/ruff/_module.ts: what `ruff check` decides from a file's place among Python packages, which ruff's
 * WebAssembly build (a text without a path) cannot see. The expected findings are `ruff check --select D1,F822`'s on
 * the same tree (ruff 0.16.9, the version poly pins), recorded here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { engine } from "../_engine_harness.ts";
import { settings } from "../_harness.ts";
import {
  absoluteImports,
  docstringsSelected,
  exemptions,
  importedModules,
  modulePath,
  ownPackage,
  packageRoot,
  rootedModulePath,
  suppresses,
} from "../../../lib/engines/ruff/_module.ts";
import { tempDir } from "../../_helpers/temp.ts";
import { runPoly } from "../../_helpers/cli.ts";
import { parityCopy, ruffFindings } from "./_parity.ts";

const UNDOCUMENTED = "def f():\n    pass\n\n\nclass C:\n    def m(self):\n        pass\n";

/** A tree of packages (folders with `__init__.py`), private ones, and folders that are no package. */
const TREE: Record<string, string> = {
  "pkg/__init__.py": "X = 1\n",
  "pkg/mod.py": UNDOCUMENTED,
  "pkg/_z.py": UNDOCUMENTED,
  "pkg/__main__.py": UNDOCUMENTED,
  "pkg/_priv/__init__.py": "X = 1\n",
  "pkg/_priv/mod.py": UNDOCUMENTED,
  "pkg/sub/y.py": UNDOCUMENTED,
  "pkg/sub2.py": '__all__ = ["missing"]\n',
  "_script.py": UNDOCUMENTED,
  "__weird.py": UNDOCUMENTED,
  "lib/x.py": UNDOCUMENTED,
  "p2/__init__.py": '"""Doc."""\n__all__ = ["missing"]\n',
};

const PUBLIC = ["1:1 D100", "1:5 D103", "5:7 D101", "6:9 D102"];

/** `ruff check --select D1,F822 --output-format=concise .` on {@link TREE}, by file. */
const NATIVE: Record<string, string[]> = {
  "pkg/__init__.py": ["1:1 D104 Missing docstring in public package"],
  "pkg/mod.py": PUBLIC,
  "pkg/__main__.py": PUBLIC,
  "pkg/sub/y.py": PUBLIC,
  "pkg/sub2.py": ["1:1 D100", "1:12 F822"],
  "lib/x.py": PUBLIC,
};

async function tree(): Promise<string> {
  const dir = await tempDir({ prefix: "poly-ruff-module-" });
  for (const [rel, text] of Object.entries(TREE)) {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
  }
  return dir;
}

/** A repository of `files` (path → text) in a new temporary folder. */
async function repository(prefix: string, files: Record<string, string>): Promise<string> {
  const dir = await tempDir({ prefix });
  await Deno.mkdir(join(dir, ".git"));
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
  }
  return dir;
}

/** `poly lint` of `dir` as `path code` lines, sorted. */
async function lintCodes(dir: string): Promise<string[]> {
  const run = await runPoly(["lint", "--no-workspace", "--format", "json", "."], { cwd: dir });
  const doc = JSON.parse(run.stdout) as { results: { path: string; diagnostics?: { code: string }[] }[] };
  return doc.results.flatMap((r) => (r.diagnostics ?? []).map((d) => `${r.path} ${d.code}`)).sort();
}

Deno.test("ruff lint() reports missing docstrings and __init__.py's rules as ruff check does at the file's path", async () => {
  const dir = await tree();
  const ruff = await engine("ruff");
  const selected = settings({ select: ["D1", "F822"] });
  for (const rel of Object.keys(TREE)) {
    const out = await ruff.lint!({ path: join(dir, rel), relPath: rel, language: "python", text: TREE[rel] }, selected);
    const got = out.diagnostics.map((d) => `${d.span!.start_line}:${d.span!.start_col} ${d.code}`);
    const want = (NATIVE[rel] ?? []).map((w) => w.split(" ").slice(0, 2).join(" "));
    assert.deepEqual(got.sort(), [...want].sort(), rel);
    if (rel === "pkg/__init__.py") assert.equal(out.diagnostics[0].title, "Missing docstring in public package");
  }
});

Deno.test("modulePath() names a file's packages and its own stem; docstringsSelected() reads the selection", async () => {
  const dir = await tree();
  assert.deepEqual(modulePath(join(dir, "pkg/_priv/mod.py")), ["pkg", "_priv", "mod"]);
  assert.deepEqual(modulePath(join(dir, "pkg/__init__.py")), ["pkg", "__init__"]);
  assert.deepEqual(modulePath(join(dir, "pkg/sub/y.py")), ["y"], "a folder without __init__.py is no package");
  assert.deepEqual(modulePath(join(dir, "_script.py")), ["_script"]);
  assert.ok(docstringsSelected({ lint: { select: ["E", "D"] } }));
  assert.ok(docstringsSelected({ lint: { "extend-select": ["D103"] } }));
  assert.ok(docstringsSelected({ select: ["ALL"] }));
  assert.ok(!docstringsSelected({ lint: { select: ["E", "F", "D2", "DTZ"] } }));
});

Deno.test("poly lint: an __init__.py made in a folder changes its modules' cached results (the folder is a package)", async () => {
  const dir = await tempDir({ prefix: "poly-ruff-package-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "_tools"));
  await Deno.writeTextFile(join(dir, "_tools", "x.py"), UNDOCUMENTED);
  await Deno.writeTextFile(join(dir, "pyproject.toml"), '[tool.ruff.lint]\nselect = ["D1"]\n');
  const codes = () => lintCodes(dir);
  // Not in a package, `_tools/x.py` is module `x`: public.
  assert.deepEqual(await codes(), ["_tools/x.py D100", "_tools/x.py D101", "_tools/x.py D102", "_tools/x.py D103"]);
  // In package `_tools` it is `_tools.x`: private, and its cached result no longer stands.
  await Deno.writeTextFile(join(dir, "_tools", "__init__.py"), '"""Tools."""\n');
  assert.deepEqual(await codes(), []);
});

Deno.test("ownPackage(): the outermost package around a file, when isort runs and detect-same-package is on", async () => {
  const dir = await tree();
  const isort = { lint: { select: ["I"] } };
  assert.equal(ownPackage(join(dir, "pkg/_priv/mod.py"), isort), "pkg");
  assert.equal(ownPackage(join(dir, "pkg/__init__.py"), isort), "pkg");
  assert.equal(ownPackage(join(dir, "lib/x.py"), isort), undefined, "in no package");
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), { lint: { select: ["E", "F"] } }), undefined, "isort not selected");
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), { select: ["ALL"] }), "pkg");
  // No `select`: ruff 0.16.9's default set, which has I001 (celery's `examples/pydantic/tasks.py`, no ruff file).
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), {}), "pkg");
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), { lint: { "extend-select": ["D"] } }), "pkg");
  const off = { lint: { select: ["I001"], isort: { "detect-same-package": false } } };
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), off), undefined);
  const placed = { lint: { select: ["I"], isort: { "known-third-party": ["pk*"] } } };
  assert.equal(ownPackage(join(dir, "pkg/mod.py"), placed), undefined, "the configuration places it itself");
});

/**
 * A test package importing itself, as requests' tests do (`from tests.testserver.server import Server` beside
 * `import requests`): ruff's isort counts a file's own package first-party (`detect-same-package`), which poly's
 * WebAssembly ruff cannot see. Native verdicts (`ruff check --select I`, ruff 0.16.9), recorded: clean; with
 * `detect-same-package = false`, `tests/test_a.py:1:1: I001`.
 */
Deno.test("poly lint: a file's own package is first-party for isort, as ruff check has it (detect-same-package)", async () => {
  const dir = await repository("poly-ruff-same-package-", {
    "tests/__init__.py": "",
    "tests/helpers.py": "h = 1\n",
    "tests/test_a.py": "import os\n\nimport pytest\n\nfrom tests.helpers import h\n\nprint(os, pytest, h)\n",
  });
  const codes = async (detect: string) => {
    await Deno.writeTextFile(
      join(dir, "pyproject.toml"),
      `[tool.ruff]\nsrc = ["lib"]\n[tool.ruff.lint]\nselect = ["I"]\n${detect}`,
    );
    return await lintCodes(dir);
  };
  assert.deepEqual(await codes(""), []);
  assert.deepEqual(await codes("[tool.ruff.lint.isort]\ndetect-same-package = false\n"), ["tests/test_a.py I001"]);
});

/**
 * ruff's isort looks at its standard-library list before the file's own package: a package named like a standard
 * module (`email/`) is standard library there. Native verdict (`ruff check --select I`, ruff 0.16.9, `src = ["lib"]`),
 * recorded: `email/x.py` clean.
 */
Deno.test("poly lint: a file's own package named like a standard module stays standard library for isort", async () => {
  const dir = await repository("poly-ruff-same-package-std-", {
    "email/__init__.py": "",
    "email/x.py": "import email.utils\nimport os\n\nprint(email, os)\n",
    "pyproject.toml": '[tool.ruff]\nsrc = ["lib"]\n[tool.ruff.lint]\nselect = ["I"]\n',
  });
  assert.deepEqual((await lintCodes(dir)).filter((c) => c.endsWith("I001")), []);
});

/**
 * The same order of lookups for the modules of the configuration's `src` folders (by default the root and `src/`):
 * ruff's standard library comes first, so a root folder named like a standard module (`email/`) does not make
 * `import email` first-party, where another folder (`other/`) does (parity/ruff-isort-src-standard). Native verdicts
 * (`ruff check --select I`, ruff 0.16.9), recorded: `import email` beside `import os` clean; beside `import other`
 * `app.py:1:1: I001`.
 */
Deno.test("poly lint: a src folder named like a standard module stays standard library for isort", async () => {
  const dir = await repository("poly-ruff-src-std-", {
    "email/__init__.py": "",
    "other/__init__.py": "",
    "pyproject.toml": '[tool.ruff.lint]\nselect = ["I"]\n',
  });
  const codes = async (text: string) => {
    await Deno.writeTextFile(join(dir, "app.py"), `${text}\nprint(email, os, requests, other)\n`);
    return (await lintCodes(dir)).filter((c) => c.endsWith("I001"));
  };
  assert.deepEqual(await codes("import email\nimport os\n\nimport requests\n\nimport other\n"), []);
  assert.deepEqual(await codes("import os\n\nimport requests\n\nimport email\nimport other\n"), ["app.py I001"]);
});

Deno.test("importedModules(): the modules import statements name, as ruff's isort categorizes them", () => {
  const text = [
    "import os",
    "import a.b as c, d  # e.f",
    "from g.h import (i,",
    "    j)",
    "from . import k",
    "from .l import m",
    "if x:",
    "    from n import o",
    "    import p.q;import r",
    "x = 'import s'",
    "imported = 1",
    "from_t = 2",
  ].join("\n");
  assert.deepEqual(importedModules(text), ["os", "a.b", "d", "g.h", "n", "p.q"]);
});

/**
 * A dotted module below a `src` folder's module is first-party only where its whole path is there: ruff 0.16.9 looks
 * for `pkg/later` as a folder, `pkg/later.py` or `pkg/later.pyi` in `src`, and counts `pkg.later` third-party (isort's
 * default section) otherwise, though `pkg` itself is first-party — as pytest's `src/py.py` makes `py` first-party and
 * `from py.path import local` not (parity/ruff-isort-src-submodule). poly had listed `pkg` as `known-first-party`, which
 * counts every module below it. Native verdicts (`ruff check --select I`, ruff 0.16.9, `src = ["src"]`), recorded:
 * `tests/test_y.py` clean without `src/pkg/later*`, `I001` with `later.py`, `later.pyi` or a `later/` folder, clean
 * with only a compiled `later.so`; `src/pkg/mod.py` (its own package: `detect-same-package`) clean; with
 * `default-section = "first-party"`, `I001` in both; with a section of the project's own as the default, clean.
 */
Deno.test("poly lint: a dotted module below a src module is first-party for isort only where its path is there", async () => {
  const dir = await repository("poly-ruff-src-submodule-", {
    "src/pkg/__init__.py": "",
    "src/pkg/mod.py": "import requests\n\nfrom pkg.missing import x\n\nprint(requests, x)\n",
    "src/single.py": "",
    "tests/test_x.py":
      "import os\n\nimport requests\nimport single.sub\n\nimport single\n\nprint(os, requests, single)\n",
    "tests/test_y.py": "import os\n\nimport pkg.later\nimport requests\n\nimport pkg\n\nprint(os, pkg, requests)\n",
  });
  const codes = async (isort = "") => {
    await Deno.writeTextFile(
      join(dir, "pyproject.toml"),
      `[tool.ruff]\nsrc = ["src"]\n[tool.ruff.lint]\nselect = ["I"]\n${isort}`,
    );
    return (await lintCodes(dir)).filter((c) => c.endsWith(" I001"));
  };
  assert.deepEqual(await codes(), []);
  // Each made in turn: the cached result of tests/test_y.py no longer stands.
  for (const made of ["later.py", "later.pyi", "later/"]) {
    const path = join(dir, "src", "pkg", made);
    if (made.endsWith("/")) await Deno.mkdir(path);
    else await Deno.writeTextFile(path, "");
    assert.deepEqual(await codes(), ["tests/test_y.py I001"], made);
    await Deno.remove(path);
  }
  await Deno.writeTextFile(join(dir, "src", "pkg", "later.so"), "");
  assert.deepEqual(await codes(), [], "a compiled module is not ruff's to find");
  assert.deepEqual(await codes('isort.default-section = "first-party"\n'), [
    "src/pkg/mod.py I001",
    "tests/test_x.py I001",
    "tests/test_y.py I001",
  ]);
  const own = 'isort.default-section = "mine"\nisort.sections.mine = ["requests"]\n' +
    'isort.section-order = ["future", "standard-library", "mine", "third-party", "first-party", "local-folder"]\n';
  assert.deepEqual(await codes(own), []);
});

/**
 * `PLW0406` (a module importing itself), which the WebAssembly build never reports, is worked out from the file's
 * module path, and `RUF100` counts its directives as `ruff check` does: used where the module imports itself
 * (pytest's `from _pytest import timing  # noqa: PLW0406` in `_pytest/timing.py`, which poly's fix had deleted:
 * parity/ruff-noqa-unseen-rule), unused elsewhere. Native findings (`ruff check --isolated --select
 * RUF100,PLW0406,F401 pkg/mod.py`, ruff 0.16.9), recorded; its fix deletes line 1's directive and line 3's `E501`,
 * which poly leaves (the WebAssembly build's fix would delete `PLW0406` with it).
 */
Deno.test("ruff lint() and fix(): RUF100 counts a PLW0406 directive used where the module imports itself", async () => {
  const ruff = await engine("ruff");
  const dir = await repository("poly-ruff-self-", { "pkg/__init__.py": "" });
  const text = "import os  # noqa: PLW0406, F401, E501, F401\nfrom pkg import mod  # noqa: PLW0406\n" +
    "from pkg import mod as m2  # noqa: PLW0406, E501\nprint(os, mod, m2)\n";
  const file = { path: join(dir, "pkg/mod.py"), relPath: "pkg/mod.py", language: "python" as const, text };
  const selected = settings({ select: ["RUF100", "PLW0406", "F401"] });
  const out = await ruff.lint!(file, selected);
  assert.deepEqual(out.diagnostics.map((d) => `${d.span!.start_line}:${d.span!.start_col} ${d.code} ${d.title}`), [
    "1:12 RUF100 Unused `noqa` directive (unused: `PLW0406`, `F401`; non-enabled: `E501`; duplicated: `F401`)",
    "3:28 RUF100 Unused `noqa` directive (non-enabled: `E501`)",
  ]);
  assert.equal(
    (await ruff.fix!(file, selected)).text,
    "import os\nfrom pkg import mod  # noqa: PLW0406\nfrom pkg import mod as m2  # noqa: PLW0406, E501\nprint(os, mod, m2)\n",
  );
  // In no package a module has no path to import itself by: the directive is unused, as `ruff check` says there.
  const loose = { ...file, path: join(dir, "mod.py"), relPath: "mod.py" };
  assert.deepEqual((await ruff.lint!(loose, selected)).diagnostics.map((d) => `${d.span!.start_line} ${d.title}`), [
    "1 Unused `noqa` directive (unused: `PLW0406`, `F401`; non-enabled: `E501`; duplicated: `F401`)",
    "2 Unused `noqa` directive (unused: `PLW0406`)",
    "3 Unused `noqa` directive (unused: `PLW0406`; non-enabled: `E501`)",
  ]);
});

/**
 * In a private module (`pkg/_priv.py`) every function is private: a missing return annotation is `ANN202` there, where
 * the WebAssembly build (no path) says `ANN201` of a public name. Native findings (`ruff check --isolated --select ANN`,
 * ruff 0.16.9), recorded: `_priv.py` `1:5`, `6:9`, `9:9` ANN202; `pub.py` `1:5`, `6:9` ANN201 and `9:9` ANN202; with
 * `--select ANN201`, only `pub.py`'s two; with `ANN202` ignored, the same two.
 */
Deno.test("ruff lint(): a private module's public functions are private for ANN202, as ruff check has it", async () => {
  const dir = await tempDir({ prefix: "poly-ruff-ann-" });
  await Deno.mkdir(join(dir, "pkg"));
  const text = "def f():\n    return 1\n\n\nclass C:\n    def m(self):\n        return 1\n\n" +
    "    def _p(self):\n        return 1\n";
  for (const name of ["__init__.py", "_priv.py", "pub.py"]) await Deno.writeTextFile(join(dir, "pkg", name), text);
  const ruff = await engine("ruff");
  const found = async (options: Record<string, unknown>) => {
    const out: string[] = [];
    for (const name of ["_priv.py", "pub.py"]) {
      const file = { path: join(dir, "pkg", name), relPath: `pkg/${name}`, language: "python" as const, text };
      for (const d of (await ruff.lint!(file, settings(options))).diagnostics) {
        out.push(`${name} ${d.span!.start_line}:${d.span!.start_col} ${d.code} ${d.title.split(" ")[5]}`);
      }
    }
    return out;
  };
  assert.deepEqual(await found({ select: ["ANN"] }), [
    "_priv.py 1:5 ANN202 private",
    "_priv.py 6:9 ANN202 private",
    "_priv.py 9:9 ANN202 private",
    "pub.py 1:5 ANN201 public",
    "pub.py 6:9 ANN201 public",
    "pub.py 9:9 ANN202 private",
  ]);
  const publicOnly = ["pub.py 1:5 ANN201 public", "pub.py 6:9 ANN201 public"];
  assert.deepEqual(await found({ select: ["ANN201"] }), publicOnly);
  assert.deepEqual(await found({ select: ["ANN"], ignore: ["ANN202"] }), publicOnly);
});

/**
 * `INP001` (a module of an implicit namespace package), which ruff decides from the folders around the file and poly
 * works out itself, with the directives that suppress it (parity/ruff-implicit-namespace). Native findings
 * (`ruff check --output-format concise .`, ruff 0.16.9, the configuration below), recorded.
 */
const NAMESPACE_TREE: Record<string, string> = {
  "nsroot/c.py": "x = 1\n",
  "nsroot/deep/b.py": "x = 1\n",
  "pkg/__init__.py": "",
  "pkg/ns/n.py": "x = 1\n",
  "pkg/used.py": "x = 1  # noqa: INP001\n",
  "src/app/e.py": "x = 1\n",
  "src/d.py": "x = 1\n",
  "stubpkg/__init__.pyi": "",
  "stubpkg/a.py": "x = 1\n",
  "tests/a.py": "x = 1\n",
  "tests/sub/b.py": "x = 1\n",
  "tools/c.py": "x = 1\n",
  "tools/f.pyw": "x = 1\n",
  "tools/g.py": "#!/usr/bin/env python\nx = 1\n",
  "tools/h.py": "# /// script\n# dependencies = []\n# ///\nx = 1\n",
  "tools/i.py": "x = 1  # noqa: INP001\n",
  "tools/j.py": "x = 1\n# ruff: noqa: INP001\n",
  "tools/k.py": '"""doc"""  # noqa\n',
  "tools/l.py": "x = 1\n# flake8: noqa\n",
  "tools/m.py": "x = 1\n# noqa: INP001\n",
  "top.py": "x = 1\n",
  "pyproject.toml": '[tool.ruff]\nsrc = ["src"]\nnamespace-packages = ["nsroot"]\n[tool.ruff.lint]\n' +
    'select = ["INP001", "RUF100"]\n',
};

const NAMESPACE_NATIVE = [
  "pkg/ns/n.py:1:1 INP001 File `pkg/ns/n.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "pkg/used.py:1:8 RUF100 Unused `noqa` directive (unused: `INP001`)",
  "src/app/e.py:1:1 INP001 File `src/app/e.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "stubpkg/a.py:1:1 INP001 File `stubpkg/a.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "tests/a.py:1:1 INP001 File `tests/a.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "tests/sub/b.py:1:1 INP001 File `tests/sub/b.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "tools/c.py:1:1 INP001 File `tools/c.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "tools/m.py:1:1 INP001 File `tools/m.py` is part of an implicit namespace package. Add an `__init__.py`.",
  "tools/m.py:2:1 RUF100 Unused `noqa` directive (unused: `INP001`)",
];

Deno.test("poly lint: INP001 as ruff check reports it (the folder's __init__.py, root, src, namespace packages, noqa)", async () => {
  const dir = await repository("poly-ruff-inp-", NAMESPACE_TREE);
  const findings = () => ruffFindings(dir);
  assert.deepEqual(await findings(), NAMESPACE_NATIVE);
  // An __init__.py made beside a module: its cached result no longer stands.
  await Deno.writeTextFile(join(dir, "tools", "__init__.py"), "");
  const inTools = (await findings()).filter((f) => f.startsWith("tools/"));
  assert.deepEqual(inTools, [
    "tools/i.py:1:8 RUF100 Unused `noqa` directive (unused: `INP001`)",
    "tools/j.py:2:1 RUF100 Unused `noqa` directive (unused: `INP001`)",
    "tools/k.py:1:12 RUF100 Unused blanket `noqa` directive",
    "tools/m.py:2:1 RUF100 Unused `noqa` directive (unused: `INP001`)",
  ]);
});

Deno.test("suppresses(), exemptions(): the directives ruff reads for a finding on the first line", () => {
  assert.ok(suppresses("x = 1  # noqa\n", "INP001"));
  assert.ok(suppresses("x = 1  # NoQA: E501, INP001\n", "INP001"));
  assert.ok(!suppresses("x = 1  # noqa: E501\n", "INP001"));
  assert.ok(!suppresses("x = 1\n# noqa: INP001\n", "INP001"), "a directive of another line");
  assert.ok(suppresses("x = 1\n# ruff: noqa\n", "INP001"));
  assert.ok(suppresses("x = 1\n  # ruff: noqa: F401, INP001\n", "INP001"));
  assert.ok(!suppresses("x = 1\n# ruff: noqa: F401\n", "INP001"));
  assert.ok(!suppresses("x = 1\ny = 2  # ruff: noqa\n", "INP001"), "not on a line of its own: ruff warns, ignores it");
  assert.deepEqual(exemptions("a = 1\n# flake8: noqa\nb = 2\n# ruff: noqa: E501\n"), [
    { row: 2, tool: "flake8" },
    { row: 4, tool: "ruff", codes: "E501" },
  ]);
});

/**
 * An `__init__.py`'s own exceptions: `import x as x` there is a re-export (no `PLC0414`), `__path__` is the package's
 * (no `F821`), and an undefined name in `__all__` (`F822`) is reported only under `preview`. Native verdicts
 * (`ruff check --isolated --select PLC0414,F821,F822`, ruff 0.16.9, and with `--preview`), recorded.
 */
Deno.test("ruff lint() of an __init__.py: PLC0414, F821 for __path__ and F822 as ruff check gives them there", async () => {
  const ruff = await engine("ruff");
  const text = 'import os as os\n\nprint(os, __path__)\n__all__ = ["missing"]\n';
  const found = async (rel: string, preview: boolean) => {
    const selected = settings({ select: ["PLC0414", "F821", "F822"], preview });
    const out = await ruff.lint!({ path: join("/tmp/r", rel), relPath: rel, language: "python", text }, selected);
    return out.diagnostics.map((d) => `${d.span!.start_line}:${d.span!.start_col} ${d.code}`).sort();
  };
  assert.deepEqual(await found("pkg/mod.py", false), ["1:8 PLC0414", "3:11 F821", "4:12 F822"]);
  assert.deepEqual(await found("pkg/__init__.py", false), []);
  assert.deepEqual(await found("pkg/__init__.py", true), ["4:12 F822"]);
});

/**
 * `PLC2701` (a private name imported from an external module) skips an import from the file's own package root, which
 * the WebAssembly build cannot know (parity/ruff-private-import-own-package: litestar's 173). Native findings
 * (`ruff check --output-format concise .`, ruff 0.16.9), recorded.
 */
Deno.test("poly lint: PLC2701 as ruff check reports it (the package root's own imports, namespace packages)", async () => {
  const dir = await parityCopy("ruff-private-import-own-package");
  assert.deepEqual(await ruffFindings(dir), [
    "pkg/mod.py:1:8 PLC2701 Private name import `_thread`",
    "pkg/mod.py:2:12 PLC2701 Private name import `_priv` from external module `other`",
    "pkg/sub/m.py:2:11 PLC2701 Private name import `_x` from external module `pkgx`",
    "top.py:1:10 PLC2701 Private name import `_private` from external module `pkg`",
  ]);
  // An `__init__.py` at the top makes the tree's folder the package root: `pkg` and `nsroot` are then other packages'
  // names, and the kept results no longer stand (native, recorded the same way).
  await Deno.writeTextFile(join(dir, "__init__.py"), "");
  assert.deepEqual(await ruffFindings(dir), [
    "nsroot/m.py:1:13 PLC2701 Private name import `_p` from external module `nsroot`",
    "pkg/mod.py:1:8 PLC2701 Private name import `_thread`",
    "pkg/mod.py:2:12 PLC2701 Private name import `_priv` from external module `other`",
    "pkg/mod.py:3:17 PLC2701 Private name import `_hidden` from external module `pkg`",
    "pkg/mod.py:4:10 PLC2701 Private name import `_private` from external module `pkg`",
    "pkg/sub/m.py:1:10 PLC2701 Private name import `_x` from external module `pkg`",
    "pkg/sub/m.py:2:11 PLC2701 Private name import `_x` from external module `pkgx`",
    "top.py:1:10 PLC2701 Private name import `_private` from external module `pkg`",
  ]);
});

/**
 * `DOC501` and `DOC502` (preview) follow exceptions raised through relative imports, which ruff resolves against the
 * file's module path (parity/ruff-relative-import-raises: pydantic's 39 and 11). Native findings (`ruff check
 * --output-format concise .`, ruff 0.16.9), recorded; `script.py` is in no package, where ruff resolves none either.
 */
Deno.test("poly lint: DOC501 and DOC502 as ruff check reports them through relative imports", async () => {
  const dir = await parityCopy("ruff-relative-import-raises");
  const native = [
    "pkg/sub/mod.py:16:5 DOC501 Raised exception `H` missing from docstring",
    "pkg/sub/mod.py:21:5 DOC501 Raised exception `H` missing from docstring",
    "pkg/sub/mod.py:26:5 DOC502 Raised exception is not explicitly raised: `E`",
    "script.py:26:5 DOC502 Raised exception is not explicitly raised: `E`",
    "script.py:7:5 DOC502 Raised exception is not explicitly raised: `E`",
  ];
  assert.deepEqual(await ruffFindings(dir), native);
  // Moved out of its package, the module resolves no relative import, and its kept result no longer stands.
  await Deno.remove(join(dir, "pkg/sub/__init__.py"));
  await Deno.remove(join(dir, "pkg/__init__.py"));
  assert.deepEqual((await ruffFindings(dir)).filter((f) => f.startsWith("pkg/sub/mod.py")), [
    "pkg/sub/mod.py:26:5 DOC502 Raised exception is not explicitly raised: `E`",
    "pkg/sub/mod.py:7:5 DOC502 Raised exception is not explicitly raised: `E`",
  ]);
});

/**
 * Under preview, `INP001` also reports an `__init__.py` whose package lies below another package of the run
 * (parity/ruff-nested-namespace-init: pytest's 7). Native findings (`ruff check --output-format concise .`, ruff
 * 0.16.9), recorded: the one finding, and no `RUF100` for the directive that suppresses the other.
 */
Deno.test("poly lint: INP001 for a package nested under an implicit namespace package, under preview", async () => {
  const dir = await parityCopy("ruff-nested-namespace-init");
  assert.deepEqual(await ruffFindings(dir), [
    "a/b/c/__init__.py:1:1 INP001 File `a/b/c/__init__.py` declares a package, but is nested under an implicit " +
    "namespace package. Add an `__init__.py` to `a/b`.",
  ]);
  // `a/b/__init__.py` made: the package is no longer nested.
  await Deno.writeTextFile(join(dir, "a/b/__init__.py"), "");
  assert.deepEqual(await ruffFindings(dir), []);
});

Deno.test("packageRoot(): the outermost folder with an __init__.py, or in namespace-packages", async () => {
  const dir = await repository("poly-ruff-root-", {
    "a/__init__.py": "",
    "a/b/__init__.py": "",
    "a/b/m.py": "",
    "a/c/m.py": "",
    "ns/x/m.py": "",
    "top.py": "",
  });
  assert.equal(packageRoot(join(dir, "a/b/m.py")), join(dir, "a"));
  assert.equal(packageRoot(join(dir, "a/c/m.py")), undefined, "a folder without __init__.py is no package");
  assert.equal(packageRoot(join(dir, "top.py")), undefined);
  assert.equal(packageRoot(join(dir, "ns/x/m.py"), [join(dir, "ns")]), join(dir, "ns"));
});

Deno.test("absoluteImports(): relative imports made absolute against the module path, each on its own line", () => {
  const text = "from . import a\nfrom .. import b\nfrom .x import (c,\n  d)\n  from ...y.z import e\n" +
    "from .... import f\nfrom . foo import g\nimport os\n";
  assert.equal(
    absoluteImports(text, ["pkg", "sub", "mod"]),
    "from pkg.sub import a\nfrom pkg import b\nfrom pkg.sub.x import (c,\n  d)\n  from y.z import e\n" +
      "from .... import f\nfrom pkg.sub.foo import g\nimport os\n",
  );
  assert.deepEqual(
    rootedModulePath("/nowhere/pkg/mod.py", packageRoot("/nowhere/pkg/mod.py")),
    undefined,
    "a file in no package",
  );
});

/**
 * `N999`, `A005`, `PLW0406`, `EXE001` and `EXE002`, which ruff decides from the file's path and mode
 * (parity/ruff-module-place-rules:
 * pip's `__pip-runner__.py`, an executable `__init__.py`). Native findings (`ruff check --output-format json .`, ruff
 * 0.16.9), recorded; the directives of `pkg/Other-Bad.py` and `exe2.py` are used (no `RUF100`).
 */
Deno.test("poly lint: N999, A005, PLW0406, EXE001 and EXE002 as ruff check reports them (path, package, mode)", async () => {
  if (Deno.build.os === "windows") return; // no executable bits
  const dir = await parityCopy("ruff-module-place-rules");
  for (
    const [name, mode] of [["tool.py", 0o755], ["run.py", 0o755], ["exe2.py", 0o755], ["script.py", 0o644]] as const
  ) {
    await Deno.chmod(join(dir, name), mode);
  }
  assert.deepEqual(await ruffFindings(dir), [
    "Top-Pkg/__init__.py:1:1 N999 Invalid module name: 'Top-Pkg'",
    "late.py:2:1 EXE001 Shebang is present but file is not executable",
    "logging.py:1:1 A005 Module `logging` shadows a Python standard-library module",
    "pkg/Bad-Name.py:1:1 N999 Invalid module name: 'Bad-Name'",
    "pkg/class.py:1:1 N999 Invalid module name: 'class'",
    "pkg/selfish.py:1:8 PLW0406 Module `pkg.selfish` imports itself",
    "pkg/selfish.py:4:5 PLW0406 Module `pkg.selfish` imports itself",
    "script.py:1:1 EXE001 Shebang is present but file is not executable",
    "src/email/__init__.py:1:1 A005 Module `email` shadows a Python standard-library module",
    "tool.py:1:1 EXE002 The file is executable but no shebang is present",
  ]);
  // The bit taken off and put on: the kept results no longer stand (native: `run.py:1:1 EXE001`, nothing for `tool.py`).
  await Deno.chmod(join(dir, "tool.py"), 0o644);
  await Deno.chmod(join(dir, "run.py"), 0o644);
  const after = (await ruffFindings(dir)).filter((f) => / EXE00/.test(f));
  assert.deepEqual(after, [
    "late.py:2:1 EXE001 Shebang is present but file is not executable",
    "run.py:1:1 EXE001 Shebang is present but file is not executable",
    "script.py:1:1 EXE001 Shebang is present but file is not executable",
  ]);
});

/**
 * `RUF105` (preview: a `noqa` comment where `ruff: ignore` reads better) on a directive poly knows used and the
 * WebAssembly build called unused: `ruff check` reports it there, with its fix (pytest's `# noqa: PLW0406`). Native
 * findings (`ruff check --output-format json .`, ruff 0.16.9), recorded: the line directive and the file-level one with
 * their fixes, the blanket file-level one without.
 */
Deno.test("poly lint: RUF105 on the directives of rules poly works out, as ruff check reports it", async () => {
  const dir = await repository("poly-ruff-105-", {
    "pyproject.toml": '[tool.ruff.lint]\npreview = true\nselect = ["INP001", "F401", "RUF105", "RUF100"]\n',
    "tools/i.py": "x = 1  # noqa: INP001\n",
    "tools/j.py": "x = 1\n# ruff: noqa: INP001\n",
    "tools/k.py": "import os\n# ruff: noqa\n",
  });
  const found = (await ruffFindings(dir, { ends: true, fixes: true })).filter((f) => f.includes(" RUF105 "));
  assert.deepEqual(found, [
    "tools/i.py:1:8-1:22 RUF105 `noqa` comment used instead of `ruff: ignore` | # ruff: ignore[INP001]",
    "tools/j.py:2:1-2:21 RUF105 `ruff: noqa` comment used instead of `ruff: file-ignore` | # ruff: file-ignore[INP001]",
    "tools/k.py:2:1-2:13 RUF105 `ruff: noqa` comment used instead of `ruff: file-ignore`",
  ]);
});
