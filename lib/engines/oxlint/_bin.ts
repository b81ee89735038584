/**
 * Where oxlint's program is and how to start it. oxlint ships as a Node.js script
 * plus an N-API binding (`@oxlint/binding-<platform>`); poly starts it as
 * `node <package>/bin/oxlint` (Node is in poly's run permission list). Run from
 * source, that is the package in `node_modules`. Inside a compiled poly the
 * package lives in the binary's embedded file system, which Node cannot read, so
 * its files are first copied once to `<cache home>/engines/oxlint-<version>-<platform>/`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyOnce } from "../../fs/copy_once.ts";
import { cacheHome } from "../../paths/mod.ts";
import { platformTriple } from "../host.ts";
import { compareText } from "../../report/sort.ts";

/** oxlint's version (pinned in deno.json). */
export const OXLINT_VERSION = "1.94.0";

/** The oxlint package's root directory URL (ends with `/`). */
export function packageRoot(): URL {
  return new URL("../", import.meta.resolve("oxlint"));
}

/** URL of the native binding for this platform, beside the package in node_modules. */
export function bindingUrl(): URL {
  const triple = platformTriple();
  return new URL(`../@oxlint/binding-${triple}/oxlint.${triple}.node`, packageRoot());
}

/** The JavaScript files of the package (sorted URLs). */
export async function scriptUrls(): Promise<URL[]> {
  const root = packageRoot();
  const dist = new URL("dist/", root);
  const out = [new URL("package.json", root), new URL("bin/oxlint", root)];
  for await (const e of Deno.readDir(dist)) if (e.isFile && e.name.endsWith(".js")) out.push(new URL(e.name, dist));
  return out.sort((a, b) => compareText(a.href, b.href));
}

/**
 * Copies the package (scripts + binding, the binding placed where the loader
 * looks first: `dist/oxlint.<triple>.node`) to `dest` and returns the path of
 * `bin/oxlint` there. A finished copy is reused (marked by `.complete`).
 */
export async function materialize(dest: string): Promise<string> {
  const root = packageRoot();
  const items = (await scriptUrls()).map((url) => ({ from: url, to: url.href.slice(root.href.length) }));
  items.push({ from: bindingUrl(), to: `dist/oxlint.${platformTriple()}.node` });
  await copyOnce(dest, OXLINT_VERSION, items);
  return join(dest, "bin", "oxlint");
}

let script: Promise<string> | undefined;

/** Path of the `bin/oxlint` script Node should run (materialized when compiled). */
export function oxlintScript(): Promise<string> {
  script ??= Deno.build.standalone
    ? materialize(join(cacheHome(), "engines", `oxlint-${OXLINT_VERSION}-${platformTriple()}`))
    : Promise.resolve(fileURLToPath(new URL("bin/oxlint", packageRoot())));
  return script;
}
