/**
 * File system helpers of the walker: real paths,
 * symbolic link diagnoses and a first-line peek for shebangs.
 *
 * @module
 */
import { readError } from "./content.ts";

/** Real path, or the path itself when it cannot be resolved. */
export async function realPath(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}

/** Why a symbolic link cannot be followed. */
export async function linkProblem(path: string, error: unknown): Promise<string> {
  if (error instanceof Deno.errors.FilesystemLoop) return "symbolic link loop: the link resolves to itself";
  if (error instanceof Deno.errors.NotFound) {
    let target = "";
    try {
      target = ` (its target "${await Deno.readLink(path)}" does not exist)`;
    } catch { /* the link itself is gone */ }
    return `dangling symbolic link${target}`;
  }
  return readError(error);
}

export function dirError(error: unknown): string {
  return readError(error).replace(/^cannot read:/, "cannot read directory:");
}

/** The first line of a file (up to 256 bytes), or undefined when unreadable. */
export async function firstLine(path: string): Promise<string | undefined> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const buf = new Uint8Array(256);
    const n = await file.read(buf);
    if (!n) return undefined;
    const text = new TextDecoder().decode(buf.subarray(0, n));
    return text.split("\n", 1)[0].replace(/\r$/, "");
  } catch {
    return undefined;
  } finally {
    file?.close();
  }
}
