/**
 * File system helpers of the walker: a concurrency limiter, real paths,
 * symbolic link diagnoses and a first-line peek for shebangs.
 *
 * @module
 */
import { readError } from "./content.ts";

/** Runs at most `max` tasks at once; the rest wait their turn. */
export class Limiter {
  readonly #max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(max: number) {
    this.#max = max;
  }

  /** Runs `task` when a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }
}

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
