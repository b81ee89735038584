/**
 * The release of an npm package a JavaScript lockfile installs for one package of the repository: what its scripts
 * run when its `node_modules` is installed, read before it is (a fresh clone, a CI job, an agent's sandbox).
 *
 * - `package-lock.json`, `npm-shrinkwrap.json` (lockfile versions 2 and 3): the entry node's resolution reaches from
 *   the package's folder (`app/node_modules/prettier`, then `node_modules/prettier`).
 * - `pnpm-lock.yaml` (lockfile versions 6 and 9): the package's importer (`.`, `app`) and its `version` for the name.
 * - `yarn.lock` (yarn 1 and yarn 2+): the entry whose descriptors include the range the manifest asks for.
 * - `bun.lock` (text): the package's hoisted entry (`"prettier": ["prettier@3.5.3", ...]`).
 *
 * Anything else (`bun.lockb`, an older lockfile version, an entry the file does not hold, text it cannot read) says
 * nothing, and the manifest's range stands.
 *
 * @module
 */
import { parseJsonc } from "./_jsonc.ts";
import { isTable } from "../table.ts";

/** The lockfiles read, in the order looked for in a folder (the first present governs). */
export const JS_LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"];

/** A version as lockfiles write it, its peer-dependency suffix (`3.5.3(typescript@5.8.2)`) left off. */
const VERSION = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)/;

/**
 * The version of `name` that lockfile `lockfile` (its base name), holding `lock`, installs for the package whose
 * manifest is in folder `rel` (relative to the lockfile's folder, `""` for the same folder) and asks for `range`; or
 * undefined when the lockfile does not say.
 */
export function lockedVersion(
  lockfile: string,
  lock: LockText,
  rel: string,
  name: string,
  range: string,
): string | undefined {
  switch (lockfile) {
    case "package-lock.json":
    case "npm-shrinkwrap.json":
      return npmLocked(lock, rel, name);
    case "pnpm-lock.yaml":
      return pnpmLocked(lock, rel, name);
    case "yarn.lock":
      return yarnLocked(lock, name, range);
    case "bun.lock":
      return bunLocked(lock, name);
    default:
      return undefined;
  }
}

/** A lockfile's text, as the configuration's files read it (one object per file and run). */
export interface LockText {
  readonly text: string;
}

/**
 * What each lockfile was read into (its JSON, JSONC or lines), for as long as its text is held: a monorepo's
 * packages each ask about the one lockfile at its root, which a large `package-lock.json` makes worth parsing once.
 */
const readInto = new WeakMap<LockText, { kind: "json" | "jsonc" | "lines"; value: unknown }>();

function readAs(lock: LockText, kind: "json" | "jsonc" | "lines"): unknown {
  const known = readInto.get(lock);
  if (known?.kind === kind) return known.value;
  let value: unknown;
  try {
    value = kind === "lines"
      ? lock.text.split(/\r?\n/)
      : kind === "json"
      ? JSON.parse(lock.text)
      : parseJsonc(lock.text);
  } catch {
    value = undefined;
  }
  readInto.set(lock, { kind, value });
  return value;
}

function versionOf(value: unknown): string | undefined {
  return typeof value === "string" ? VERSION.exec(value)?.[1] : undefined;
}

/** npm: the nearest `node_modules/<name>` entry from the package's folder up, as Node's resolution finds it. */
function npmLocked(lock: LockText, rel: string, name: string): string | undefined {
  const doc = readAs(lock, "json");
  const packages = isTable(doc) ? doc.packages : undefined;
  if (!isTable(packages)) return undefined;
  const parts = rel === "" ? [] : rel.split("/");
  for (let i = parts.length; i >= 0; i--) {
    const entry = packages[[...parts.slice(0, i), "node_modules", name].join("/")];
    if (isTable(entry)) return versionOf(entry.version);
  }
  return undefined;
}

/** pnpm: in `importers`, the package's block, its dependency `name`, that dependency's `version`. */
function pnpmLocked(lock: LockText, rel: string, name: string): string | undefined {
  const lines = readAs(lock, "lines") as string[];
  const importers = lines.indexOf("importers:");
  if (importers < 0) return undefined;
  // A key as pnpm writes it: bare or quoted, after its indentation.
  const keyLines = (s: string, indent: string) => new Set([s, `'${s}'`, `"${s}"`].map((k) => `${indent}${k}:`));
  const importer = keyLines(rel === "" ? "." : rel, "  ");
  const dependency = keyLines(name, "      ");
  let i = lines.findIndex((line, n) => n > importers && importer.has(line));
  if (i < 0) return undefined;
  // The importer's block: its lines are indented deeper than its key's two spaces.
  for (i++; i < lines.length && (lines[i] === "" || lines[i].startsWith("   ")); i++) {
    if (!dependency.has(lines[i])) continue;
    for (let j = i + 1; j < lines.length && lines[j].startsWith("        "); j++) {
      const version = /^ {8}version: ['"]?([^'"\s]+)/.exec(lines[j]);
      if (version) return versionOf(version[1]);
    }
    return undefined;
  }
  return undefined;
}

/** yarn: the entry one of whose descriptors is `name@range` (yarn 1) or `name@npm:range` (yarn 2+). */
function yarnLocked(lock: LockText, name: string, range: string): string | undefined {
  const wanted = new Set([`${name}@${range}`, `${name}@npm:${range}`]);
  const lines = readAs(lock, "lines") as string[];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "" || line.startsWith(" ") || line.startsWith("#") || !line.endsWith(":")) continue;
    const descriptors = line.slice(0, -1).split(",").map((d) => d.trim().replace(/^"|"$/g, ""));
    if (!descriptors.some((d) => wanted.has(d))) continue;
    for (let j = i + 1; j < lines.length && lines[j].startsWith(" "); j++) {
      const version = /^ {2}version:? "?([^"\s]+)"?$/.exec(lines[j]);
      if (version) return versionOf(version[1]);
    }
    return undefined;
  }
  return undefined;
}

/** bun: the hoisted entry `packages[name]`, `["name@version", ...]`. */
function bunLocked(lock: LockText, name: string): string | undefined {
  const doc = readAs(lock, "jsonc");
  const packages = isTable(doc) ? doc.packages : undefined;
  const entry = isTable(packages) ? packages[name] : undefined;
  const id = Array.isArray(entry) ? entry[0] : undefined;
  return typeof id === "string" && id.startsWith(`${name}@`) ? versionOf(id.slice(name.length + 1)) : undefined;
}
