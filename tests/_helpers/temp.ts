/**
 * Temporary directories and files for tests, removed when the test process ends (`unload` is dispatched at the end of
 * every test module's run, passed or failed). A test that removes its own earlier loses nothing; one that does not no
 * longer leaves it in the machine's temporary directory: thousands of runs of the suite used to leave tens of
 * thousands there.
 *
 * @module
 */

const made = new Set<string>();

function removeAll(): void {
  for (const path of made) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // removed by the test already, or left unremovable on purpose by it
    }
  }
  made.clear();
}

function track(path: string): string {
  if (made.size === 0) globalThis.addEventListener("unload", removeAll, { once: true });
  made.add(path);
  return path;
}

/** `Deno.makeTempDir`, removed with its contents when the test process ends. */
export async function tempDir(options?: Deno.MakeTempOptions): Promise<string> {
  return track(await Deno.makeTempDir(options));
}

/** `Deno.makeTempDirSync`, removed with its contents when the test process ends. */
export function tempDirSync(options?: Deno.MakeTempOptions): string {
  return track(Deno.makeTempDirSync(options));
}

/** `Deno.makeTempFile`, removed when the test process ends. */
export async function tempFile(options?: Deno.MakeTempOptions): Promise<string> {
  return track(await Deno.makeTempFile(options));
}

/**
 * A temporary repository (a folder with an empty `.git`, removed when the test process ends) holding `files`: paths
 * relative to it, with `/`, their folders made as needed.
 */
export async function tempRepository(files: Record<string, string>, prefix = "poly-repo-"): Promise<string> {
  const dir = await tempDir({ prefix });
  await Deno.mkdir(`${dir}/.git`);
  for (const [path, text] of Object.entries(files)) {
    const at = `${dir}/${path}`;
    await Deno.mkdir(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(at, text);
  }
  return dir;
}
