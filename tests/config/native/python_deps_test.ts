import assert from "node:assert/strict";
import { join } from "node:path";
import {
  lockedVersion,
  makefileBlack,
  pinnedRelease,
  pipfileDeclares,
  pyprojectDeclares,
  PythonDepsReader,
  requirementsDeclare,
  toxDeclares,
  workflowBlack,
} from "../../../lib/config/native/python_deps.ts";
import { NativeFiles } from "../../../lib/config/native/_files.ts";
import { tempRepository } from "../../_helpers/temp.ts";

const plain = (found: Map<string, string | undefined>) => Object.fromEntries(found);

Deno.test("pyprojectDeclares() reads the tooling lists, not what the package needs to run", () => {
  assert.deepEqual(plain(pyprojectDeclares('[dependency-groups]\ndev = ["pytest", "ruff==0.6.9"]\n')), {
    ruff: "==0.6.9",
  });
  assert.deepEqual(
    plain(
      pyprojectDeclares(
        "[project.optional-dependencies]\nlint = [\"Black[jupyter] >= 23.1 ; python_version > '3.8'\"]\n",
      ),
    ),
    { black: ">= 23.1" },
  );
  assert.deepEqual(plain(pyprojectDeclares('[tool.uv]\ndev-dependencies = ["ruff~=0.8.1"]\n')), { ruff: "~=0.8.1" });
  assert.deepEqual(plain(pyprojectDeclares('[tool.pdm.dev-dependencies]\nlint = ["black>=24"]\n')), { black: ">=24" });
  assert.deepEqual(
    plain(pyprojectDeclares('[tool.hatch.envs.lint]\ndependencies = ["black==24.2.0", "ruff"]\n')),
    { black: "==24.2.0", ruff: undefined },
  );
  assert.deepEqual(
    plain(pyprojectDeclares('[tool.poetry.group.dev.dependencies]\nblack = "^23.1"\nruff = { version = "0.4.2" }\n')),
    { black: "^23.1", ruff: "0.4.2" },
  );
  assert.deepEqual(plain(pyprojectDeclares('[tool.poetry.dev-dependencies]\nblack = "*"\n')), { black: undefined });
  // A package's runtime dependencies: a code generator may depend on black to format what it writes.
  assert.deepEqual(plain(pyprojectDeclares('[project]\nname = "gen"\ndependencies = ["black>=23"]\n')), {});
  assert.deepEqual(plain(pyprojectDeclares('[tool.poetry.dependencies]\nblack = "^23"\n')), {});
  // A name that only starts like one, and a file that does not parse.
  assert.deepEqual(plain(pyprojectDeclares('[dependency-groups]\ndev = ["blacken-docs", "ruff-lsp"]\n')), {});
  assert.deepEqual(plain(pyprojectDeclares('[dependency-groups\ndev = ["black"]\n')), {});
});

Deno.test("requirementsDeclare() reads one requirement a line, its options, comments and continuations aside", () => {
  const text = [
    "-r requirements.txt",
    "# black==22.1.0 is a comment",
    "flask==2.3.2",
    "black==23.1.0 \\",
    "    --hash=sha256:0123abc",
    "ruff >=0.4  # linting",
    "",
  ].join("\n");
  assert.deepEqual(plain(requirementsDeclare(text)), { black: "==23.1.0", ruff: ">=0.4" });
  assert.deepEqual(plain(requirementsDeclare("black\r\n")), { black: undefined });
  assert.deepEqual(plain(requirementsDeclare("-e git+https://example.com/black.git#egg=black\n")), {});
});

Deno.test("pipfileDeclares() reads [dev-packages]", () => {
  assert.deepEqual(plain(pipfileDeclares('[packages]\nblack = "*"\n')), {});
  assert.deepEqual(plain(pipfileDeclares('[dev-packages]\nblack = "==23.1.0"\nruff = {version = "*"}\n')), {
    black: "==23.1.0",
    ruff: undefined,
  });
});

Deno.test("toxDeclares() reads the deps of tox's environments", () => {
  const ini = [
    "[tox]",
    "envlist = py, lint",
    "",
    "[testenv]",
    "deps = pytest",
    "",
    "[testenv:lint]",
    "deps =",
    "    black==24.2.0  # the formatter",
    "    flake8",
    "commands = black --check .",
    "",
    "[flake8]",
    "max-line-length = 88",
    "",
  ].join("\n");
  assert.deepEqual(plain(toxDeclares(ini)), { black: "==24.2.0" });
  assert.deepEqual(plain(toxDeclares("[testenv]\ndeps = ruff\n")), { ruff: undefined });
  assert.deepEqual(plain(toxDeclares("[other]\ndeps = black\n")), {});
});

Deno.test("pinnedRelease() is the release a specifier fixes, as far as the tool's style guide goes", () => {
  // black: its major release.
  assert.equal(pinnedRelease("black", "==23.1.0"), "23.1.0");
  assert.equal(pinnedRelease("black", "~=23.1"), "23.1");
  assert.equal(pinnedRelease("black", "^24.2"), "24.2");
  assert.equal(pinnedRelease("black", "24.2.0"), "24.2.0");
  assert.equal(pinnedRelease("black", "==24.*"), "24");
  assert.equal(pinnedRelease("black", "==19.10b0"), "19.10", "black's releases before 22 were betas");
  assert.equal(pinnedRelease("black", ">=23.1"), undefined);
  assert.equal(pinnedRelease("black", "~=23"), undefined);
  // ruff (0.x): its minor release.
  assert.equal(pinnedRelease("ruff", "==0.6.9"), "0.6.9");
  assert.equal(pinnedRelease("ruff", "~=0.8.1"), "0.8.1");
  assert.equal(pinnedRelease("ruff", "^0.6"), "0.6");
  assert.equal(pinnedRelease("ruff", "~0.6.1"), "0.6.1");
  assert.equal(pinnedRelease("ruff", "==0.6.*"), "0.6");
  assert.equal(pinnedRelease("ruff", "~=0.6"), undefined, "0.6 up to 1.0");
  assert.equal(pinnedRelease("ruff", ">=0.4,<0.5"), undefined);
  assert.equal(pinnedRelease("ruff", ">=0.4, ==0.4.7"), "0.4.7");
});

Deno.test("lockedVersion() reads uv's, Poetry's and PDM's [[package]] tables", () => {
  const uv = '[[package]]\nname = "ruffus"\nversion = "2.8"\n\n[[package]]\nname = "ruff"\nversion = "0.14.14"\n';
  assert.equal(lockedVersion(uv, "ruff"), "0.14.14");
  assert.equal(lockedVersion(uv, "black"), undefined);
  assert.equal(lockedVersion('[[package]]\r\nname = "black"\r\nversion = "23.12.1"\r\n', "black"), "23.12.1");
});

Deno.test("makefileBlack() reads the layout flags a Makefile's recipes give black, where it can know them", () => {
  assert.deepEqual(makefileBlack("fmt:\n\tblack .\ncheck:\n\tblack --check .\n"), []);
  // The same flags spelt otherwise, before a path and after `python -m` or `poetry run`, behind `@` and `&&`.
  const both =
    "lint:\n\t@python3 -m black -S -l 100 --check src\nfmt:\n\tpoetry run black -S --line-length=100 src && isort .\n";
  assert.deepEqual(makefileBlack(both), ["--line-length=100", "--skip-string-normalization"]);
  assert.deepEqual(
    makefileBlack("fmt:\n\t.venv/bin/black -l88 -t py38 --exclude migrations .\n"),
    ["--line-length=88", "--target-version=py38"],
  );
  assert.deepEqual(makefileBlack("a:\n\tblack \\\n\t  --line-length 99 \\\n\t  src\n"), ["--line-length=99"]);
  assert.deepEqual(makefileBlack("a:\n\tblack --version\nb:\n\tblack -l 79 .\n"), ["--line-length=79"]);
  // What it cannot know: a make variable, another configuration file, recipes that disagree.
  assert.equal(makefileBlack("fmt:\n\tblack $(SRC) -l $(LEN)\n"), undefined);
  assert.equal(makefileBlack("a:\n\tblack --config other.toml .\n"), undefined);
  assert.equal(makefileBlack("a:\n\tblack -l 100 .\nb:\n\tblack .\n"), undefined);
  // No recipe runs black: another tool, a comment, a prerequisite's name.
  assert.equal(makefileBlack("a:\n\tblacken-docs README.md\n\t# black .\nb: black\n"), undefined);
  // Installing black, or naming it to another program, does not run it.
  assert.deepEqual(makefileBlack("dev:\n\tpip install black isort\nfmt:\n\tblack -l 100 .\n"), ["--line-length=100"]);
  assert.deepEqual(makefileBlack("lint:\n\tpre-commit run black --all-files\n\tuvx black -S .\n"), [
    "--skip-string-normalization",
  ]);
});

Deno.test("workflowBlack() reads what GitHub Actions workflows give black: a step's script, the psf/black action", () => {
  const steps = (...list: unknown[]) => ({ jobs: { lint: { "runs-on": "ubuntu-latest", steps: list } } });
  // The action, with its default options (`--check --diff`), its own, and its `version`.
  assert.deepEqual(workflowBlack([steps({ uses: "actions/checkout@v4" }, { uses: "psf/black@stable" })]), { args: [] });
  assert.deepEqual(
    workflowBlack([
      steps({ uses: "psf/black@stable", with: { options: "--check --verbose -l 79", version: "~= 22.0" } }),
    ]),
    { args: ["--line-length=79"], release: "22.0" },
  );
  // A script's lines, installing it aside; the same flags in two workflows agree.
  const run = steps({ run: "pip install black==24.1.0 isort\nblack --check -S .\nisort --check ." });
  assert.deepEqual(workflowBlack([run, steps({ run: "python -m black --skip-string-normalization --diff src" })]), {
    args: ["--skip-string-normalization"],
  });
  // What it cannot know: an expression, steps that disagree; nothing runs black: undefined.
  assert.equal(workflowBlack([steps({ run: "black -l ${{ env.WIDTH }} ." })]), undefined);
  assert.equal(workflowBlack([steps({ run: "black -l 100 ." }, { uses: "psf/black@stable" })]), undefined);
  assert.equal(workflowBlack([steps({ run: "pip install black" }), "not a workflow", undefined]), undefined);
});

Deno.test("PythonDepsReader: the nearest folder declaring either, its lockfile's release over its range", async () => {
  const root = await tempRepository({
    "requirements/dev.txt": "black==24.2.0\n",
    "requirements/base.txt": "flask\n",
    "pkg/pyproject.toml": '[dependency-groups]\ndev = ["ruff>=0.9"]\n',
    "pkg/uv.lock": '[[package]]\nname = "ruff"\nversion = "0.12.3"\n',
    "pkg/src/mod/x.py": "x = 1\n",
    "other/pyproject.toml": '[project]\nname = "other"\n',
    "made/Makefile": "fmt:\n\tblack -S .\n",
    "ci/.github/workflows/lint.yml": "jobs:\n  lint:\n    steps:\n      - uses: psf/black@stable\n        with:\n" +
      '          options: "--check -l 100"\n',
    "ci/.github/workflows/test.yaml": "jobs:\n  test:\n    steps:\n      - run: pytest\n",
    "ci/app/x.py": "x = 1\n",
  }, "poly-pydeps-");
  const reader = new PythonDepsReader(new NativeFiles());
  const top = await reader.forDir(root, root);
  assert.equal(top?.dir, root);
  assert.equal(top?.black?.file.path, join(root, "requirements/dev.txt"));
  assert.equal(top?.black?.release, "24.2.0");
  assert.equal(top?.ruff, undefined);
  // pkg/ declares ruff: the nearest declaring folder is pkg's, whose lockfile holds the release.
  const pkg = await reader.forDir(join(root, "pkg/src/mod"), root);
  assert.equal(pkg?.dir, join(root, "pkg"));
  assert.deepEqual(pkg?.ruff && { release: pkg.ruff.release, lockfile: pkg.ruff.lockfile }, {
    release: "0.12.3",
    lockfile: join(root, "pkg/uv.lock"),
  });
  assert.equal(pkg?.black, undefined, "the nearest folder's declarations alone");
  // A Makefile that runs black declares it, with its flags.
  const made = await reader.forDir(join(root, "made"), root);
  assert.equal(made?.black?.file.path, join(root, "made/Makefile"));
  assert.deepEqual(made?.blackFlags?.args, ["--skip-string-normalization"]);
  // A workflow that runs black declares it, with its flags, in the folder holding `.github`.
  const ci = await reader.forDir(join(root, "ci/app"), root);
  assert.equal(ci?.dir, join(root, "ci"));
  assert.equal(ci?.black?.file.path, join(root, "ci/.github/workflows/lint.yml"));
  assert.deepEqual(ci?.blackFlags && { args: ci.blackFlags.args, by: ci.blackFlags.by }, {
    args: ["--line-length=100"],
    by: "its workflow's black",
  });
  // other/ declares neither: the root's.
  assert.equal((await reader.forDir(join(root, "other"), root))?.dir, root);
});
