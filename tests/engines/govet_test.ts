import { equal, notEqual } from "node:assert/strict";
import { basename, join } from "node:path";
import { assertGolden, copyFixture } from "../_helpers/cli.ts";
import { goContext, govet, parseVetOutput } from "../../lib/engines/govet/mod.ts";
import type { SourceFile } from "../../lib/engines/types.ts";
import { diagnosticsJson, engineError, GOLDEN, missing, settings } from "./_harness.ts";
import { tempDir } from "../_helpers/temp.ts";

const absent = await missing("go", "govet engine tests");

async function goFile(dir: string, name: string): Promise<SourceFile> {
  const path = join(dir, name);
  return { path, relPath: basename(path), language: "go", text: await Deno.readTextFile(path) };
}

Deno.test({
  name: "govet lint() matches the golden diagnostics, per file of the package",
  ignore: absent,
  async fn() {
    const dir = await copyFixture("engines/govet/bad");
    const engine = await govet.load();
    const main = await engine.lint!(await goFile(dir, "main.go"), settings());
    const helper = await engine.lint!(await goFile(dir, "helper.go"), settings());
    await assertGolden(join(GOLDEN, "govet", "main.go.json"), diagnosticsJson(main.diagnostics));
    await assertGolden(join(GOLDEN, "govet", "helper.go.json"), diagnosticsJson(helper.diagnostics));
  },
});

Deno.test({
  name: "govet lint() throws EngineError with line and column when the package does not compile",
  ignore: absent,
  async fn() {
    const dir = await copyFixture("engines/govet/broken");
    const file = await goFile(dir, "main.go");
    const error = await engineError(async () => await (await govet.load()).lint!(file, settings()));
    equal(error.line, 4);
    equal(error.column, 17);
  },
});

Deno.test({
  name: "govet lintMany() vets each package once and answers every file as lint() does, a broken one included",
  ignore: absent,
  async fn() {
    const bad = await copyFixture("engines/govet/bad");
    const broken = await copyFixture("engines/govet/broken");
    const files = [
      await goFile(bad, "main.go"),
      await goFile(broken, "main.go"),
      await goFile(bad, "helper.go"),
    ];
    const many = await (await govet.load()).lintMany!(files, settings());
    const fresh = await govet.load();
    const single = await Promise.all(
      files.map((f) => Promise.resolve(fresh.lint!(f, settings())).catch((e: Error) => e)),
    );
    equal(many.length, 3);
    many.forEach((result, i) => {
      const expected = single[i];
      equal(result instanceof Error, expected instanceof Error, files[i].path);
      equal(
        result instanceof Error ? result.message : diagnosticsJson((result as { diagnostics: unknown[] }).diagnostics),
        expected instanceof Error ? expected.message : diagnosticsJson(expected.diagnostics),
      );
    });
    notEqual((many[0] as { diagnostics: unknown[] }).diagnostics.length, 0, "findings in the bad package");
  },
});

Deno.test("parseVetOutput() reads findings and compile errors", () => {
  const stderr = [
    "# command-line-arguments",
    "{",
    '\t"command-line-arguments": {',
    '\t\t"printf": [{"posn": "/x/a.go:6:2", "message": "bad format"}]',
    "\t}",
    "}",
  ].join("\n");
  const parsed = parseVetOutput(stderr, "/x");
  equal(parsed.findings.length, 1);
  equal(parsed.findings[0].analyzer, "printf");
  const broken = parseVetOutput("# pkg\nvet: ./a.go:4:17: cannot use 1\n", "/x");
  equal(broken.failure?.file, "/x/a.go");
  equal(broken.failure?.line, 4);
});

Deno.test("goContext() keys a Go file's vet result on its module (or directory), once per run", async () => {
  const root = await tempDir({ prefix: "poly-govet-context-" });
  const write = (rel: string, text: string) => Deno.writeTextFile(`${root}/${rel}`, text);
  await Deno.mkdir(`${root}/mod/a`, { recursive: true });
  await Deno.mkdir(`${root}/mod/b`, { recursive: true });
  await Deno.mkdir(`${root}/loose`, { recursive: true });
  await write("mod/go.mod", "module example.com/m\n\ngo 1.21\n");
  await write("mod/a/a.go", "package a\n");
  await write("mod/b/b.go", "package b\n");
  await write("loose/x.go", "package x\n");
  await write("loose/y.go", "package x\n");
  const file = (rel: string) => ({ path: `${root}/${rel}`, relPath: rel, language: "go" as const, text: "" });

  const a1 = await goContext(file("mod/a/a.go"), "run-1");
  equal(await goContext(file("mod/b/b.go"), "run-1"), a1, "one module, one context");
  await write("mod/b/b.go", "package b\n\nvar B = 1\n");
  equal(await goContext(file("mod/a/a.go"), "run-1"), a1, "remembered within a run");
  const a2 = await goContext(file("mod/a/a.go"), "run-2");
  notEqual(a2, a1, "another package of the module changed: a new context in the next run");
  await write("mod/go.mod", "module example.com/m\n\ngo 1.22\n");
  notEqual(await goContext(file("mod/a/a.go"), "run-3"), a2, "go.mod is part of it");

  const x1 = await goContext(file("loose/x.go"), "run-4");
  await write("loose/y.go", "package x\n\nvar Y = 2\n");
  notEqual(await goContext(file("loose/x.go"), "run-5"), x1, "outside a module: the directory's files");
  notEqual(await goContext(file("loose/x.go")), x1, "no run id: read every time");
});

Deno.test("goContext() takes a source's digest from the stat index while its stamp holds, and reads it once it moves", async () => {
  const { openCache, RACY_MS, stampOf } = await import("../../lib/cache/mod.ts");
  const { digestOf } = await import("../../lib/cache/digest.ts");
  const root = await tempDir({ prefix: "poly-govet-index-" });
  await Deno.mkdir(join(root, "mod", "a"), { recursive: true });
  await Deno.writeTextFile(join(root, "mod", "go.mod"), "module example.com/m\n\ngo 1.21\n");
  await Deno.writeTextFile(join(root, "mod", "a", "a.go"), "package a\n");
  // The stat index only remembers stamps older than RACY_MS.
  await new Promise((r) => setTimeout(r, RACY_MS + 200));
  const index = await openCache({ anchor: root, root: join(root, ".cache") });
  const file = { path: join(root, "mod", "a", "a.go"), relPath: "mod/a/a.go", language: "go" as const, text: "" };
  const record = (path: string, digest: string) => ({ path, ...stampOf(Deno.statSync(path)), digest });
  const read = await goContext(file, "run-1");
  // The digests the pre-pass records (of the text): the same context as reading.
  index.recordFiles([
    record(join(root, "mod", "go.mod"), digestOf(Deno.readTextFileSync(join(root, "mod", "go.mod")))),
    record(file.path, digestOf("package a\n")),
  ]);
  index.flush();
  equal(await goContext(file, "run-2", index), read, "index digests and read digests agree");
  // A record whose stamp holds is believed (so a warm run reads nothing): a stand-in digest shows it.
  index.recordFiles([record(file.path, "stand-in")]);
  index.flush();
  const believed = await goContext(file, "run-3", index);
  notEqual(believed, read, "the index's digest was used");
  // The file changes: its stamp moves, the record is ignored, the file is read.
  await Deno.writeTextFile(file.path, "package a\n\nvar A = 1\n");
  const changed = await goContext(file, "run-4", index);
  notEqual(changed, believed);
  equal(changed, await goContext(file, "run-5"), "read again, as without an index");
  index.close();
  await Deno.remove(root, { recursive: true });
});

Deno.test({
  name:
    "govet lintMany() on a module the host Go cannot read starts go once, and every file meets the module's one failure",
  ignore: absent,
  async fn() {
    const dir = await copyFixture("e2e/gomodule"); // go.mod asks for go 1.99.0; two packages, four files
    const { GoVet } = await import("../../lib/engines/govet/mod.ts");
    const { SharedFailure } = await import("../../lib/engines/types.ts");
    const engine = (await govet.load()) as InstanceType<typeof GoVet>;
    const vetted: string[] = [];
    engine.onVet = (d) => void vetted.push(d);
    const files = await Promise.all(
      ["cmd/app/main.go", "internal/util/bye.go", "internal/util/hello.go", "internal/util/third.go"].map((name) =>
        goFile(dir, name)
      ),
    );
    const results = await engine.lintMany!(files, settings());
    equal(vetted.length, 1, JSON.stringify(vetted));
    for (const result of results) {
      equal(result instanceof SharedFailure, true, String(result));
      equal((result as InstanceType<typeof SharedFailure>).scope, join(dir, "go.mod"));
    }
  },
});
