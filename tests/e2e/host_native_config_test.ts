/**
 * The repository's own configuration governs the host and bundled tools (issue
 * 21): `.shellcheckrc`, `.markdownlint*`, `.clang-format`, `rustfmt.toml`, and
 * biome's `$schema` check — the real `poly lint` / `poly fmt` processes on the
 * parity fixtures under tests/engines/testdata/parity/ (each README gives the
 * native tool's verdict) and on small repositories under fixtures/native/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, REPO, runPoly } from "../_helpers/cli.ts";

interface Record_ {
  path: string;
  diagnostics?: { code?: string; engine: string }[];
  changed?: boolean;
  skipped?: string;
  error?: string;
}

interface Doc {
  results: Record_[];
  configs: { sources: string[] }[];
  errors: { message: string }[];
}

/** A copy of a parity fixture as a repository of its own. */
async function parity(name: string): Promise<string> {
  const dest = await Deno.makeTempDir({ prefix: "poly-parity-" });
  await Deno.mkdir(join(dest, ".git"));
  const src = join(REPO, "tests/engines/testdata/parity", name);
  for await (const e of Deno.readDir(src)) {
    if (e.name !== "README.md") await Deno.copyFile(join(src, e.name), join(dest, e.name));
  }
  return dest;
}

async function run(dir: string, args: string[]) {
  const out = await runPoly([...args, "--no-workspace", "--no-cache", "--format", "json"], { cwd: dir });
  let doc: Doc;
  try {
    doc = JSON.parse(out.stdout);
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
  return { ...out, doc };
}

function codes(doc: Doc, path: string, engine: string): string[] {
  const r = doc.results.find((x) => x.path === path);
  return (r?.diagnostics ?? []).filter((d) => d.engine === engine).map((d) => d.code ?? "").sort();
}

function hasSource(doc: Doc, file: string): boolean {
  return doc.configs.some((c) => c.sources.includes(file));
}

Deno.test("biome-schema-version: a biome.json whose $schema names poly's pinned biome is clean, as biome lint says", async () => {
  const dir = await parity("biome-schema-version");
  const { code, doc } = await run(dir, ["lint"]);
  assert.deepEqual(codes(doc, "biome.json", "biome"), []);
  assert.equal(code, 0, JSON.stringify(doc.results));
  // Another version in $schema is still reported, as biome 2.5.14 reports it.
  await Deno.writeTextFile(
    join(dir, "biome.json"),
    (await Deno.readTextFile(join(dir, "biome.json"))).replace("2.5.14", "2.4.0"),
  );
  assert.deepEqual(codes((await run(dir, ["lint"])).doc, "biome.json", "biome"), ["deserialize"]);
});

Deno.test("shellcheckrc-ignored: the nearest .shellcheckrc governs shellcheck, as shellcheck finds it", async () => {
  const dir = await parity("shellcheckrc-ignored");
  const { code, doc } = await run(dir, ["lint", "run.sh"]);
  assert.deepEqual(codes(doc, "run.sh", "shellcheck"), []);
  assert.equal(code, 0, JSON.stringify(doc.results));
  assert.ok(hasSource(doc, ".shellcheckrc"), JSON.stringify(doc.configs));
  // A nearer rc file in a subdirectory wins for the scripts below it (shellcheck takes the first one it finds).
  await Deno.mkdir(join(dir, "sub"));
  await Deno.copyFile(join(dir, "run.sh"), join(dir, "sub/run.sh"));
  await Deno.writeTextFile(join(dir, "sub/.shellcheckrc"), "disable=SC2034\n");
  const nested = (await run(dir, ["lint", "run.sh", "sub/run.sh"])).doc;
  assert.deepEqual(codes(nested, "run.sh", "shellcheck"), []);
  assert.deepEqual(codes(nested, "sub/run.sh", "shellcheck"), ["SC2086"]);
  assert.ok(hasSource(nested, "sub/.shellcheckrc"), JSON.stringify(nested.configs));
});

Deno.test("[tools.shellcheck] native_config = false: .shellcheckrc is not read", async () => {
  const dir = await parity("shellcheckrc-ignored");
  await Deno.writeTextFile(join(dir, "poly.toml"), "[tools.shellcheck]\nnative_config = false\n");
  const { doc } = await run(dir, ["lint", "run.sh"]);
  assert.deepEqual(codes(doc, "run.sh", "shellcheck"), ["SC2086"]);
  assert.ok(!hasSource(doc, ".shellcheckrc"));
});
