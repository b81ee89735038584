/**
 * The managed CLAUDE.md block: install, refresh, uninstall. Only the text between
 * the markers is ever replaced; a backup (`CLAUDE.md.poly.bak`) is written before
 * install and uninstall change the file; every write is atomic.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { env } from "../paths/mod.ts";
import { PolyError } from "../errors/mod.ts";
import { VERSION } from "../identity/build.ts";
import { BLOCK_BEGIN_PREFIX, BLOCK_END, renderBlock } from "./_block.ts";

export { BLOCK_BEGIN_PREFIX, BLOCK_END, renderBlock } from "./_block.ts";

/** What happened (or, in a dry run, would happen) to the file. */
export type ClaudeMdAction =
  | "created" // the file did not exist
  | "appended" // the block was added at the end
  | "replaced" // an existing block (or a hand-written <poly_preference> section) was rewritten
  | "unchanged" // the block was already current
  | "removed" // uninstall took the block out
  | "absent" // uninstall found no block
  | "skipped"; // refresh: no markers, switched off, or malformed markers

/** The outcome of an install, uninstall or refresh. */
export interface ClaudeMdResult {
  path: string;
  action: ClaudeMdAction;
  /** A hand-written `<poly_preference>` section was replaced. */
  legacyReplaced: boolean;
  /** Where the previous content was saved, when the file was changed. */
  backupPath?: string;
  /** The file's content after the change (or as it would be after a dry run). */
  text: string;
  /** Why a refresh was skipped. */
  reason?: string;
}

/** Options of install and uninstall. */
export interface ClaudeMdOptions {
  /** The file; default {@link claudeMdPath}. */
  path?: string;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
  /** The version written into the begin marker (default: this program's). */
  version?: string;
}

const BLOCK_PATTERN = /<!-- poly:begin[^\n]*?-->[\s\S]*?<!-- poly:end -->\n?/;
const LEGACY_PATTERN = /^[ \t]*<poly_preference>[\s\S]*?<\/poly_preference>[ \t]*\n?/m;

/** The file holding the block: POLY_CLAUDE_MD_PATH, else `~/.claude/CLAUDE.md`. */
export function claudeMdPath(read: (name: string) => string | undefined = env): string {
  const own = read("POLY_CLAUDE_MD_PATH");
  if (own) return own;
  const home = read("HOME") ?? read("USERPROFILE");
  if (!home) throw new PolyError("Cannot find CLAUDE.md: HOME is not set: pass --path or set POLY_CLAUDE_MD_PATH");
  return join(home, ".claude", "CLAUDE.md");
}

/** Whether the server may refresh the block at start (POLY_CLAUDE_MD is not off/0/false/no). */
export function refreshEnabled(read: (name: string) => string | undefined = env): boolean {
  return !/^(off|0|false|no)$/i.test((read("POLY_CLAUDE_MD") ?? "").trim());
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Checks the markers: none, or exactly one begin before exactly one end. Throws a PolyError otherwise. */
function checkMarkers(text: string, path: string): boolean {
  const begins = countOf(text, BLOCK_BEGIN_PREFIX);
  const ends = countOf(text, BLOCK_END);
  if (begins === 0 && ends === 0) return false;
  if (begins === 1 && ends === 1 && BLOCK_PATTERN.test(text)) return true;
  throw new PolyError(
    `Malformed poly block in "${path}": found ${begins} begin and ${ends} end marker(s): ` +
      `expected exactly one "${BLOCK_BEGIN_PREFIX} ... -->" followed by one "${BLOCK_END}"; fix or delete them by hand`,
  );
}

/** Puts `block` into `text`: over the existing block, else over a hand-written section, else at the end. */
export function upsertBlock(
  text: string,
  block: string,
  path = "CLAUDE.md",
): { action: "appended" | "replaced" | "unchanged"; legacyReplaced: boolean; text: string } {
  const hasBlock = checkMarkers(text, path);
  const legacy = LEGACY_PATTERN.test(text);
  if (hasBlock) {
    const withoutLegacy = legacy ? text.replace(LEGACY_PATTERN, "") : text;
    const updated = withoutLegacy.replace(BLOCK_PATTERN, () => block);
    return { action: updated === text ? "unchanged" : "replaced", legacyReplaced: legacy, text: updated };
  }
  if (legacy) return { action: "replaced", legacyReplaced: true, text: text.replace(LEGACY_PATTERN, () => block) };
  const base = text === "" ? "" : text.endsWith("\n") ? `${text}\n` : `${text}\n\n`;
  return { action: "appended", legacyReplaced: false, text: base + block };
}

/** Takes the block out of `text`; at the end of the file the blank line before it goes too. */
export function removeBlock(text: string, path = "CLAUDE.md"): { removed: boolean; text: string } {
  if (!checkMarkers(text, path)) return { removed: false, text };
  const match = BLOCK_PATTERN.exec(text)!;
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + match[0].length);
  if (after.trim() === "") {
    const trimmed = before.replace(/\n+$/, "");
    return { removed: true, text: trimmed === "" ? "" : `${trimmed}\n` };
  }
  // Between two paragraphs: keep one blank line, not two.
  const rest = before.endsWith("\n\n") && after.startsWith("\n") ? after.slice(1) : after;
  return { removed: true, text: before + rest };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new PolyError(`Cannot read "${path}": ${error instanceof Error ? error.message : error}`);
  }
}

async function write(path: string, original: string | undefined, text: string): Promise<string | undefined> {
  let backupPath: string | undefined;
  if (original !== undefined) {
    backupPath = `${path}.poly.bak`;
    await writeFileAtomic(backupPath, original);
  } else {
    await Deno.mkdir(dirname(path), { recursive: true });
  }
  await writeFileAtomic(path, text);
  return backupPath;
}

/** Writes or refreshes the block (creating the file if needed), backing the file up first. */
export async function installClaudeMd(options: ClaudeMdOptions = {}): Promise<ClaudeMdResult> {
  const path = options.path ?? claudeMdPath();
  const original = await readIfExists(path);
  const result = upsertBlock(original ?? "", renderBlock(options.version ?? VERSION), path);
  const action = original === undefined ? "created" : result.action;
  const base = { path, action, legacyReplaced: result.legacyReplaced, text: result.text } as const;
  if (options.dryRun || result.text === original) return { ...base };
  const backupPath = await write(path, original, result.text);
  return { ...base, ...(backupPath ? { backupPath } : {}) };
}

/** Removes the block, backing the file up first; nothing else in the file changes. */
export async function uninstallClaudeMd(options: ClaudeMdOptions = {}): Promise<ClaudeMdResult> {
  const path = options.path ?? claudeMdPath();
  const original = await readIfExists(path);
  if (original === undefined) return { path, action: "absent", legacyReplaced: false, text: "" };
  const result = removeBlock(original, path);
  if (!result.removed) return { path, action: "absent", legacyReplaced: false, text: original };
  const base = { path, action: "removed", legacyReplaced: false, text: result.text } as const;
  if (options.dryRun) return { ...base };
  const backupPath = await write(path, original, result.text);
  return { ...base, ...(backupPath ? { backupPath } : {}) };
}

/** Options of {@link refreshClaudeMdBlock}. */
export interface RefreshOptions {
  path?: string;
  version?: string;
  env?: (name: string) => string | undefined;
}

/**
 * For `poly mcp` at start: rewrites an installed block to this version's text.
 * Only when the markers already exist and POLY_CLAUDE_MD is not off; never
 * creates the block, never touches text outside it, never throws.
 */
export async function refreshClaudeMdBlock(options: RefreshOptions = {}): Promise<ClaudeMdResult> {
  const read = options.env ?? env;
  let path = options.path ?? "";
  const skipped = (reason: string): ClaudeMdResult => ({
    path,
    action: "skipped",
    legacyReplaced: false,
    text: "",
    reason,
  });
  try {
    if (!refreshEnabled(read)) return skipped("POLY_CLAUDE_MD is off");
    path ||= claudeMdPath(read);
    const original = await readIfExists(path);
    if (original === undefined || !original.includes(BLOCK_BEGIN_PREFIX)) return skipped("no poly block installed");
    const result = upsertBlock(original, renderBlock(options.version ?? VERSION), path);
    // Refresh leaves a hand-written section alone: replacing it is install's job.
    if (result.legacyReplaced) return skipped("a hand-written <poly_preference> section is present: run install");
    if (result.action !== "unchanged") await writeFileAtomic(path, result.text);
    return { path, action: result.action, legacyReplaced: false, text: result.text };
  } catch (error) {
    return skipped(error instanceof Error ? error.message : String(error));
  }
}
