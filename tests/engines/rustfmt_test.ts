import { deepEqual, equal, match, ok } from "node:assert/strict";
import { inProcessWith } from "../_helpers/isolated.ts";
import { join } from "node:path";
import { assertGolden, runPoly } from "../_helpers/cli.ts";
import { rustfmt } from "../../lib/engines/rustfmt/mod.ts";
import { engineError, fixture, GOLDEN, missing, native, settings } from "./_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

const absent = await missing("rustfmt", "rustfmt engine tests");

Deno.test({
  name: "rustfmt format() matches the golden output and is idempotent",
  ignore: absent,
  async fn() {
    const engine = await rustfmt.load();
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const once = await engine.format!(file, settings());
    await assertGolden(join(GOLDEN, "rustfmt", "unformatted.rs.golden"), once);
    equal(await engine.format!({ ...file, text: once }, settings()), once);
  },
});

Deno.test({
  name: "rustfmt format() equals the native rustfmt with the same options",
  ignore: absent,
  async fn() {
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const ours = await (await rustfmt.load()).format!(file, settings({}, { line_length: 100 }));
    equal(ours, await native("rustfmt", ["--edition", "2021"], file.text));
  },
});

Deno.test({
  name: "rustfmt format() throws EngineError with line and column on a syntax error",
  ignore: absent,
  async fn() {
    const file = await fixture("rustfmt/syntax.rs", "rust");
    const error = await engineError(async () => await (await rustfmt.load()).format!(file, settings()));
    equal(error.line, 2);
    equal(typeof error.column, "number");
  },
});

Deno.test("rustfmt format() is unavailable, not formatted, when rustfmt is not on PATH", async () => {
  // In a process of its own: emptying PATH here would reach every test module running beside this one.
  const result = await inProcessWith(
    { PATH: "/nonexistent" },
    `
    const { rustfmt } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
    const text = await Deno.readTextFile(REPO + "/fixtures/engines/rustfmt/unformatted.rs");
    const file = { path: "/x/unformatted.rs", relPath: "unformatted.rs", language: "rust", text };
    const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {} };
    try {
      await (await rustfmt.load()).format(file, settings);
      console.log(JSON.stringify("formatted"));
    } catch (e) {
      console.log(JSON.stringify(e.name));
    }
  `,
  );
  equal(result, "EngineUnavailableError");
});

Deno.test({
  name: "rustfmt formatMany() formats many files in one process, equal to one at a time",
  ignore: absent,
  async fn() {
    const { formatMany } = await import("../../lib/engines/rustfmt/mod.ts");
    const file = await fixture("rustfmt/unformatted.rs", "rust");
    const syntax = await fixture("rustfmt/syntax.rs", "rust");
    const withMod = { ...file, relPath: "lib.rs", text: "mod missing;\nfn a(){}\n" };
    const small = { ...file, relPath: "b.rs", text: "fn b(){let y=2;}\n" };
    const results = await formatMany([file, syntax, withMod, small], settings());
    equal(results[0], await (await rustfmt.load()).format!(file, settings()));
    equal(results[1] instanceof Error && (results[1] as { line?: number }).line, 2);
    equal(results[2], "mod missing;\nfn a() {}\n");
    equal(results[3], "fn b() {\n    let y = 2;\n}\n");
  },
});

Deno.test({
  name: "rustfmt leaves no temporary directory behind, one file or a batch",
  ignore: absent,
  async fn() {
    const tmp = await tempDir({ prefix: "poly-rustfmt-tmp-" });
    try {
      // In a process of its own, whose temporary directory is this test's: others format Rust beside it.
      const result = await inProcessWith(
        { TMPDIR: tmp },
        `
        const { rustfmt } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
        const text = await Deno.readTextFile(REPO + "/fixtures/engines/rustfmt/unformatted.rs");
        const file = (name) => ({ path: "/x/" + name, relPath: name, language: "rust", text });
        const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {} };
        const engine = await rustfmt.load();
        await engine.format(file("one.rs"), settings);
        const many = await engine.formatMany([file("a.rs"), file("b.rs")], settings);
        console.log(JSON.stringify(many.map((m) => typeof m)));
      `,
      );
      deepEqual(result, ["string", "string"]);
      deepEqual([...Deno.readDirSync(tmp)].map((e) => e.name), []);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

/** The toolchains rustup has installed (empty without rustup); and whether it is 1.28 or later (no auto-install). */
async function rustup(): Promise<{ toolchains: string[]; modern: boolean }> {
  const run = async (args: string[]) => {
    try {
      const out = await new Deno.Command("rustup", { args, stdout: "piped", stderr: "null" }).output();
      return out.success ? new TextDecoder().decode(out.stdout) : "";
    } catch {
      return "";
    }
  };
  const [major, minor] = (/rustup (\d+)\.(\d+)/.exec(await run(["--version"])) ?? []).slice(1).map(Number);
  return { toolchains: (await run(["toolchain", "list"])).split("\n"), modern: major > 1 || minor >= 28 };
}

const toolchains = await rustup();
const noNightly = !toolchains.toolchains.some((t) => t.startsWith("nightly"));
if (noNightly) console.log("SKIPPED the rust-toolchain.toml test: rustup has no nightly toolchain installed");

/** A repository whose rust-toolchain.toml names `channel`, with a rustfmt.toml setting an option only nightly takes. */
async function toolchainRepo(channel: string): Promise<string> {
  const dir = await tempDir({ prefix: "poly-rustfmt-toolchain-" });
  await Deno.mkdir(join(dir, ".git"));
  await Deno.mkdir(join(dir, "src"));
  await Deno.writeTextFile(join(dir, "rust-toolchain.toml"), `[toolchain]\nchannel = "${channel}"\n`);
  await Deno.writeTextFile(join(dir, "rustfmt.toml"), 'imports_granularity = "Crate"\n');
  const text = "use a::b;\nuse a::c;\nfn main() {}\n";
  // Two files go to one rustfmt process; a file declaring a module goes alone, through stdin.
  await Deno.writeTextFile(join(dir, "src", "main.rs"), text);
  await Deno.writeTextFile(join(dir, "src", "other.rs"), text);
  await Deno.writeTextFile(join(dir, "src", "lib.rs"), `mod other;\n${text}`);
  return dir;
}

/** The repository's three files, and settings as its configuration gives them (its rustfmt.toml and toolchain file). */
async function toolchainFiles(dir: string) {
  const { formatMany } = await import("../../lib/engines/rustfmt/mod.ts");
  const names = ["src/lib.rs", "src/main.rs", "src/other.rs"];
  const files = await Promise.all(names.map(async (relPath) => ({
    path: join(dir, relPath),
    relPath,
    language: "rust" as const,
    text: await Deno.readTextFile(join(dir, relPath)),
  })));
  const native = {
    files: ["rustfmt.toml", "rust-toolchain.toml"].map((name) => ({ path: join(dir, name), hash: "0123456789abcdef" })),
    options: { imports_granularity: "Crate" },
    root: dir,
  };
  return await formatMany(files, { ...settings(), native });
}

Deno.test({
  name: "rustfmt runs with the toolchain the repository's rust-toolchain.toml names, batch and stdin alike",
  ignore: absent || noNightly,
  async fn() {
    const dir = await toolchainRepo("nightly");
    // This process's cwd (the repository of poly) names no toolchain: before, both ran rustup's default (stable).
    for (const out of await toolchainFiles(dir)) {
      ok(typeof out === "string" && out.includes("use a::{b, c};\n"), String(out));
    }
    // The real process lists the file among the configuration's sources (and so keys its results by it).
    const run = await runPoly(["fmt", "--check", "--format", "json"], { cwd: dir });
    const doc = JSON.parse(run.stdout) as { configs: { sources: string[] }[] };
    ok(doc.configs.some((c) => c.sources.includes("rust-toolchain.toml")), JSON.stringify(doc.configs));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "rustfmt: a toolchain rust-toolchain.toml names that is not installed is an error naming it, not a download",
  ignore: absent || !toolchains.modern,
  async fn() {
    const dir = await toolchainRepo("1.0.0");
    for (const out of await toolchainFiles(dir)) {
      ok(out instanceof Error && /toolchain '1\.0\.0[^']*' is not installed/.test(out.message), String(out));
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "rustfmt's cache keys carry the whole version of the toolchain it runs with, asked where it runs",
  ignore: absent || noNightly,
  async fn() {
    const salts: string[] = [];
    for (const channel of ["nightly", "stable"]) {
      const dir = await toolchainRepo(channel);
      const native = {
        files: ["rustfmt.toml", "rust-toolchain.toml"].map((name) => ({ path: join(dir, name), hash: "0" })),
        options: {},
        root: dir,
      };
      salts.push(await rustfmt.cacheSalt!({ ...settings(), native }));
      await Deno.remove(dir, { recursive: true });
    }
    // The nightly's commit and date, which `1.9.0-nightly` alone does not tell apart from the next nightly's.
    match(salts[0], /^rustfmt \d+\.\d+\.\d+-nightly \([0-9a-f]+ \d{4}-\d\d-\d\d\)$/);
    match(salts[1], /^rustfmt \d+\.\d+\.\d+-stable/);
  },
});

Deno.test("emitted(): each file's text from rustfmt's output, a declared module's given twice", async () => {
  const { emitted } = await import("../../lib/engines/rustfmt/mod.ts");
  const stdout =
    "/t/lib.rs:\n\nmod a;\nfn l() {}\n/t/a.rs:\n\nfn a() {}\n/t/a.rs:\n\nfn a() {}\n/t/b.rs:\n\nfn b() {}\n";
  deepEqual(emitted(stdout, ["/t/a.rs", "/t/b.rs", "/t/lib.rs", "/t/gone.rs"], "/t"), [
    "fn a() {}\n",
    "fn b() {}\n",
    "mod a;\nfn l() {}\n",
    undefined,
  ]);
});

Deno.test("emitted(): a module a #[path] places is named as rustfmt joins it, and a header outside the batch ends a text", async () => {
  const { emitted } = await import("../../lib/engines/rustfmt/mod.ts");
  // `#[path = "../shared/y.rs"] mod y;` in src/lib.rs, and `#[path = "../../out.rs"] mod o;` leaving the batch.
  const stdout = "/t/src/lib.rs:\n\nmod y;\nmod o;\n/t/src/../shared/y.rs:\n\nfn y() {}\n/t/src/../../out.rs:\n\n" +
    "fn o() {}\n/t/shared/y.rs:\n\nfn y() {}\n";
  deepEqual(emitted(stdout, ["/t/src/lib.rs", "/t/shared/y.rs"], "/t"), ["mod y;\nmod o;\n", "fn y() {}\n"]);
});

Deno.test("skippedBy(): the file declaring a module under #[rustfmt::skip], where Rust looks for it", async () => {
  const { skippedBy } = await import("../../lib/engines/rustfmt/mod.ts");
  const tree: Record<string, string> = {
    "/c/src/lib.rs":
      '#[cfg(feature = "x")]\n#[rustfmt::skip]\npub mod tables;\nmod plain;\n#[rustfmt::skip] mod inner;\n',
    "/c/src/a.rs": "#[cfg_attr(rustfmt, rustfmt_skip)]\nmod b;\n",
    "/c/src/d/mod.rs": "#[rustfmt::skip::macros(html)]\nmod e;\n",
  };
  const read = (path: string) => tree[path];
  equal(skippedBy("/c/src/tables.rs", read), "/c/src/lib.rs");
  equal(skippedBy("/c/src/inner/mod.rs", read), "/c/src/lib.rs");
  equal(skippedBy("/c/src/plain.rs", read), undefined);
  equal(skippedBy("/c/src/a/b.rs", read), "/c/src/a.rs");
  // `rustfmt::skip::macros(...)` skips macro calls, not the module.
  equal(skippedBy("/c/src/d/e.rs", read), undefined);
  equal(skippedBy("/c/src/lib.rs", read), undefined);
});

Deno.test("declaredModules(): where Rust finds the modules a file declares, among the batch's places", async () => {
  const { declaredModules } = await import("../../lib/engines/rustfmt/mod.ts");
  const places = new Set(["src/lib.rs", "src/a.rs", "src/b/mod.rs", "src/a/c.rs", "src/raw.rs", "src/t.rs"]);
  const lib = "mod a;\npub(crate) mod b;\n#[cfg(test)] mod t;\nmod r#raw;\nmod absent;\n// mod z;\nmod inline {\n}\n";
  deepEqual(declaredModules("src/lib.rs", lib, places), ["src/a.rs", "src/b/mod.rs", "src/t.rs", "src/raw.rs"]);
  // A file that is not lib.rs, main.rs or mod.rs owns the folder named after it.
  deepEqual(declaredModules("src/a.rs", "pub mod c;\n", places), ["src/a/c.rs"]);
  deepEqual(declaredModules("src/b/mod.rs", "mod c;\n", places), []);
});

Deno.test({
  name: "poly fmt hands rustfmt a run's files at once: one rustfmt process for many files, not one per file",
  ignore: absent,
  async fn() {
    const real = new TextDecoder().decode(
      (await new Deno.Command("sh", { args: ["-c", "command -v rustfmt"], stdout: "piped" }).output()).stdout,
    ).trim();
    const dir = await tempDir({ prefix: "poly-rustfmt-run-" });
    await Deno.mkdir(join(dir, ".git"));
    const bin = await tempDir({ prefix: "poly-rustfmt-bin-" });
    const log = join(bin, "calls.log");
    // A rustfmt that notes each formatting call (not `--version`) and runs the real one.
    await Deno.writeTextFile(
      join(bin, "rustfmt"),
      `#!/bin/sh\ncase "$1" in --version) ;; *) echo call >> '${log}' ;; esac\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    for (let i = 0; i < 6; i++) await Deno.writeTextFile(join(dir, `m${i}.rs`), `fn f${i}(){let x=${i};}\n`);
    // A crate whose files declare modules: rustfmt reads them where the run has them, in the same process.
    await Deno.mkdir(join(dir, "src/nested"), { recursive: true });
    await Deno.writeTextFile(join(dir, "src/lib.rs"), "mod util;\npub mod nested;\nfn a(){}\n");
    await Deno.writeTextFile(join(dir, "src/util.rs"), "pub fn u(){let y=1;}\n");
    await Deno.writeTextFile(join(dir, "src/nested/mod.rs"), "#[cfg(test)]\nmod deep;\npub fn n(){}\n");
    await Deno.writeTextFile(join(dir, "src/nested/deep.rs"), "fn d(){}\n");
    const out = await runPoly(["fmt", "--check", "--no-cache", "--format", "json"], {
      cwd: dir,
      env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    });
    equal(out.code, 1, out.stderr);
    const changed = (JSON.parse(out.stdout) as { results: { path: string; changed?: boolean }[] }).results
      .filter((r) => r.changed).map((r) => r.path).sort();
    const crate = ["src/lib.rs", "src/nested/deep.rs", "src/nested/mod.rs", "src/util.rs"];
    deepEqual(changed, ["m0.rs", "m1.rs", "m2.rs", "m3.rs", "m4.rs", "m5.rs", ...crate]);
    equal((await Deno.readTextFile(log)).trim().split("\n").length, 1);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  },
});

Deno.test("rustfmtArgs(): a crate's file takes rustfmt's defaults, as cargo fmt; a file in no crate [defaults]", async () => {
  const { rustfmtArgs } = await import("../../lib/engines/rustfmt/mod.ts");
  const loose = settings({}, { line_length: 120, indent_width: 2 });
  deepEqual(rustfmtArgs(loose), [
    "--emit",
    "stdout",
    "--edition",
    "2021",
    "--config",
    "max_width=120,newline_style=Unix,tab_spaces=2",
  ]);
  const cargo = { path: "/repo/Cargo.toml", hash: "0123456789abcdef" };
  const crate = { ...loose, native: { files: [cargo], options: { edition: "2024" }, root: "/repo" } };
  deepEqual(rustfmtArgs(crate), ["--emit", "stdout", "--edition", "2024"]);
  // poly.toml's rustfmt keys still apply over rustfmt's defaults.
  deepEqual(rustfmtArgs({ ...crate, tool: { max_width: 90 } }).slice(-2), ["--config", "max_width=90"]);
});

Deno.test({
  name: "rustfmt: a style of options only nightly takes runs nightly's rustfmt, and without one is an error saying so",
  ignore: absent || noNightly,
  async fn() {
    const { formatMany } = await import("../../lib/engines/rustfmt/mod.ts");
    const dir = await tempDir({ prefix: "poly-rustfmt-nightly-" });
    try {
      // tantivy's way: a rustfmt.toml of nightly options, no toolchain file, CI running `cargo +nightly fmt`.
      await Deno.writeTextFile(join(dir, "rustfmt.toml"), "where_single_line = true\n");
      const text = "impl<B> From<B> for W<B>\nwhere B: Send\n{\n    fn from(b: B) -> Self {\n        W(b)\n    }\n}\n";
      const native = {
        files: [{ path: join(dir, "rustfmt.toml"), hash: "0123456789abcdef" }],
        options: { where_single_line: true },
        root: dir,
      };
      const files = ["a.rs", "b.rs"].map((relPath) => ({
        path: join(dir, relPath),
        relPath,
        language: "rust" as const,
        text,
      }));
      // Stable rustfmt would split the where clause; nightly keeps it on one line, as `cargo +nightly fmt --check` does.
      deepEqual(await formatMany(files, { ...settings(), native }), [text, text]);
      // A fake rustup proxy with no nightly toolchain (stable's warning, then nightly's `--version` failing).
      const bin = join(dir, "bin");
      await Deno.mkdir(bin);
      await Deno.writeTextFile(
        join(bin, "rustfmt"),
        '#!/bin/sh\nif [ "$RUSTUP_TOOLCHAIN" = nightly ]; then echo "error: toolchain \'nightly\' is not installed" >&2; ' +
          "exit 1; fi\necho \"Warning: can't set \\`where_single_line = true\\`, unstable features are only available " +
          'in nightly channel." >&2\ncat\n',
      );
      await Deno.chmod(join(bin, "rustfmt"), 0o755);
      const result = await inProcessWith(
        { PATH: `${bin}:${Deno.env.get("PATH")}`, HOME: dir },
        `
        const { formatMany } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
        const files = ${JSON.stringify(files)};
        const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {}, native: ${
          JSON.stringify(native)
        } };
        console.log(JSON.stringify((await formatMany(files, settings)).map((r) => r instanceof Error ? r.message : r)));
      `,
      ) as string[];
      equal(result.length, 2);
      for (const message of result) {
        match(
          message,
          /rustfmt\.toml sets options only nightly rustfmt takes \(where_single_line\), and rustup has no/,
        );
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("rustfmt: a style of stable options only starts no process to ask which toolchain", async () => {
  const { formatMany } = await import("../../lib/engines/rustfmt/mod.ts");
  const dir = await tempDir({ prefix: "poly-rustfmt-stable-" });
  try {
    await Deno.writeTextFile(join(dir, "rustfmt.toml"), 'max_width = 79\nuse_small_heuristics = "Max"\n');
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    // A rustfmt that logs each start and gives each file it is named back as `--emit stdout` does: one batch process
    // for two files, no probe before it.
    await Deno.writeTextFile(
      join(bin, "rustfmt"),
      `#!/bin/sh\necho start >> "${dir}/starts"\nfor f in "$@"; do case "$f" in *.rs) printf '%s:\\n\\n' "$f"; ` +
        'cat "$f";; esac; done\n',
    );
    await Deno.chmod(join(bin, "rustfmt"), 0o755);
    const native = {
      files: [{ path: join(dir, "rustfmt.toml"), hash: "0123456789abcdef" }],
      options: { max_width: 79, use_small_heuristics: "Max", edition: "2021" },
      root: dir,
    };
    const files = ["a.rs", "b.rs"].map((relPath) => ({
      path: join(dir, relPath),
      relPath,
      language: "rust",
      text: "",
    }));
    await inProcessWith(
      { PATH: `${bin}:${Deno.env.get("PATH")}`, HOME: dir },
      `
      const { formatMany } = await import(REPO + "/lib/engines/rustfmt/mod.ts");
      const settings = { defaults: { line_length: 120, line_ending: "lf" }, tool: {}, native: ${
        JSON.stringify(native)
      } };
      await formatMany(${JSON.stringify(files)}, settings);
      console.log("null");
    `,
    );
    equal((await Deno.readTextFile(join(dir, "starts"))).trim().split("\n").length, 1);
    void formatMany;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
