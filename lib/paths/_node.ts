/**
 * Node's own path functions, for Windows (lib/paths/path.ts): drive letters,
 * UNC paths and both separators are theirs to get right.
 *
 * @module
 */
export { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
export { fileURLToPath, pathToFileURL } from "node:url";
