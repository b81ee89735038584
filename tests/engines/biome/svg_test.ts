/**
 * SVG (issue 21): `biome lint` lints `.svg` files as HTML (the CSS of their `<style>` too) and
 * `biome format` leaves them alone; poly does the same. The real `poly lint` / `poly fmt --check`
 * processes on tests/engines/testdata/parity/biome-svg (its README gives biome's verdict).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFixture, runPoly } from "../../_helpers/cli.ts";
import { detectLanguage } from "../../../lib/discover/language.ts";

interface Doc {
  results: {
    path: string;
    diagnostics?: { code?: string; engine: string; span?: { start_line: number; start_col: number } }[];
    skipped?: string;
    changed?: boolean;
  }[];
}

async function run(dir: string, args: string[]): Promise<{ code: number; doc: Doc }> {
  const out = await runPoly([...args, "--no-cache", "--format", "json"], { cwd: dir });
  try {
    return { code: out.code, doc: JSON.parse(out.stdout) };
  } catch {
    throw new Error(`not JSON (exit ${out.code}): ${out.stdout}\n${out.stderr}`);
  }
}

Deno.test("detectLanguage() calls .svg files SVG", () => {
  assert.equal(detectLanguage("public/logo.svg"), "svg");
  assert.equal(detectLanguage("ICON.SVG"), "svg");
});

Deno.test("poly lint lints SVG files with biome, as biome lint does; poly fmt leaves them alone, as biome format does", async () => {
  const dir = await copyFixture("../tests/engines/testdata/parity/biome-svg");
  await Deno.mkdir(join(dir, ".git"));
  const lint = await run(dir, ["lint", "--no-workspace"]);
  const at = (path: string) =>
    (lint.doc.results.find((r) => r.path === path)?.diagnostics ?? []).map((d) =>
      `${d.engine}:${d.code}:${d.span?.start_line}:${d.span?.start_col}`
    ).sort();
  assert.deepEqual(at("badge.svg"), ["biome:a11y/noSvgWithoutTitle:1:1", "biome:correctness/noUnknownProperty:3:45"]);
  assert.deepEqual(at("titled.svg"), []);
  assert.equal(lint.doc.results.find((r) => r.path === "titled.svg")?.skipped, undefined);
  assert.equal(lint.code, 1);
  const before = await Deno.readTextFile(join(dir, "badge.svg"));
  const fmt = await run(dir, ["fmt"]);
  assert.equal(await Deno.readTextFile(join(dir, "badge.svg")), before);
  assert.ok(fmt.doc.results.every((r) => !r.changed), JSON.stringify(fmt.doc.results));
});
