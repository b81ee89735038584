import { equal } from "node:assert/strict";
import { Batcher, CopiesLinter, withTempFiles } from "../../lib/engines/batch.ts";
import type { SourceFile } from "../../lib/engines/types.ts";
import { settings } from "./_harness.ts";

const file = (name: string): SourceFile => ({ path: `/x/${name}`, relPath: name, language: "shell", text: name });

Deno.test("Batcher call() groups calls of one tick by settings and keeps per-file errors apart", async () => {
  const batches: string[][] = [];
  const batcher = new Batcher<string>((files) => {
    batches.push(files.map((f) => f.relPath));
    return Promise.resolve(files.map((f) => f.relPath === "bad" ? new Error("bad file") : f.text.toUpperCase()));
  });
  const s1 = settings();
  const s2 = settings({ x: 1 });
  const results = await Promise.allSettled([
    batcher.call(file("a"), s1),
    batcher.call(file("bad"), s1),
    batcher.call(file("c"), s2),
  ]);
  equal(batches.map((b) => b.join("+")).join(" "), "a+bad c");
  equal(results[0].status === "fulfilled" && results[0].value, "A");
  equal(results[1].status, "rejected");
  equal(results[2].status === "fulfilled" && results[2].value, "C");
  equal(await batcher.call(file("d"), s1), "D", "a lone call is its own batch");
});

Deno.test("withTempFiles() keeps base names apart and cleans up", async () => {
  let seen = "";
  await withTempFiles([file("a.sh"), file("a.sh")], async (dir, names) => {
    equal(names.join(), "0/a.sh,1/a.sh");
    equal(await Deno.readTextFile(`${dir}/${names[1]}`), "a.sh");
    seen = dir;
  });
  equal(await Deno.stat(seen).then(() => true, () => false), false);
});

Deno.test("withTempFiles() lays copies out where nameOf says, folders made as needed, a name given twice once", async () => {
  await withTempFiles([file("a.js"), file("b.js"), file("a.js")], async (dir, names) => {
    equal(names.join(), "src/deep/a.js,b.js,src/deep/a.js");
    equal(await Deno.readTextFile(`${dir}/src/deep/a.js`), "a.js");
    equal(await Deno.readTextFile(`${dir}/b.js`), "b.js");
  }, (f) => f.relPath === "a.js" ? "src/deep/a.js" : f.relPath);
});

Deno.test("CopiesLinter lintMany() gives each process as many files as the count and the paths' budget allow", async () => {
  const chunks: number[] = [];
  const linter = (chunk: number, budget: number) =>
    new CopiesLinter(
      (files) => {
        chunks.push(files.length);
        return Promise.resolve({ outcomes: files.map(() => ({ diagnostics: [] })), texts: files.map((f) => f.text) });
      },
      chunk,
      budget,
    );
  const files = Array.from({ length: 7 }, (_, i) => file(`f${i}.js`)); // paths of 8 characters
  equal((await linter(Infinity, 100_000).lintMany(files, settings())).length, 7);
  equal((await linter(3, 100_000).lintMany(files, settings())).length, 7);
  equal((await linter(Infinity, 20).lintMany(files, settings())).length, 7);
  equal((await linter(Infinity, 1).lintMany(files, settings())).length, 7, "a path over the budget still goes alone");
  equal(chunks.join(), "7,3,3,1,2,2,2,1,1,1,1,1,1,1,1");
});
