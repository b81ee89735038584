/**
 * The path functions of the modules a replayed `poly lint` and a daemon's
 * client load: Node's own on Windows, and on Linux and macOS POSIX functions
 * of poly's own (lib/paths/_posix.ts, held to Node's by tests/paths/path_test.ts)
 * that start none of Deno's Node layer, which takes 15–21 ms to start: a tenth
 * of a replayed run (docs/performance.md). Other modules use `node:path`.
 *
 * @module
 */
import type * as Posix from "./_posix.ts";

const impl: typeof Posix = Deno.build.os === "windows" ? await import("./_node.ts") : await import("./_posix.ts");

export const { basename, dirname, fileURLToPath, isAbsolute, join, normalize, pathToFileURL, relative, resolve, sep } =
  impl;
