import { equal } from "node:assert/strict";
import { Batcher, withTempFiles } from "../../lib/engines/batch.ts";
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
