/**
 * Finding the files whose bytes are an in-process engine: its JS glue and its
 * WebAssembly module, located beside the package's resolved entry point.
 *
 * @module
 */
import { createRequire } from "node:module";
import { againOnCrash, EngineCrash } from "./types.ts";
import { sourcePath } from "../identity/code.ts";

/**
 * URLs of `names` in the directory of a resolved package entry.
 *
 * @example
 * ```ts
 * siblingUrls(import.meta.resolve("@wasm-fmt/gofmt"), ["gofmt.js", "gofmt.wasm"]);
 * ```
 */
export function siblingUrls(entryUrl: string, names: readonly string[]): string[] {
  return names.map((name) => new URL(name, entryUrl).href);
}

/**
 * Message of any thrown value. A wrapper with an empty message gives the one it
 * wraps: biome's js-api throws a `WasmError` whose message is empty and whose
 * `stackTrace` is biome's own error; an Error's `cause` likewise.
 */
export function messageOf(error: unknown, depth = 0): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.trim() || depth > 3 || error === null || typeof error !== "object") return message;
  for (const inner of [(error as { stackTrace?: unknown }).stackTrace, (error as { cause?: unknown }).cause]) {
    if (inner !== undefined && inner !== error) {
      const found = messageOf(inner, depth + 1).replace(/^(?:Error: )+/, "");
      if (found.trim()) return found;
    }
  }
  return message;
}

/**
 * URLs of every file under the directory of a resolved package entry whose name
 * ends with one of `exts` (recursively, sorted): the code of a pure-JavaScript
 * engine, hashed into its identity digest.
 */
export async function packageFiles(entryUrl: string, exts: readonly string[]): Promise<string[]> {
  const root = new URL(".", entryUrl);
  const out: string[] = [];
  // Synchronous: a package holds hundreds of files, and this runs on every start.
  const walk = (dir: URL) => {
    for (const e of Deno.readDirSync(dir)) {
      const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
      if (e.isDirectory) walk(url);
      else if (exts.some((x) => e.name.endsWith(x))) out.push(url.href);
    }
  };
  walk(root);
  return await Promise.resolve(out.sort());
}

/**
 * One call into a WebAssembly engine that can crash: a trap (a Rust panic ends in
 * `unreachable`; memory out of bounds, or past its cap) or its stack overflowing
 * leaves the module's memory as the crash found it (a query half-run, a borrow never
 * returned), so every later call could fail for it. On a crash `discard` drops the
 * instance (the next file gets a new one: {@link freshCommonJs}) and the call fails
 * with an {@link EngineCrash} naming it — with the panic's message, which the module
 * prints with `console.error` (kept out of poly's output). Any other error passes.
 * An engine runs a file's call again on the new instance (`againOnCrash`), so a crash
 * is the file's only when it repeats.
 */
export function wasmCall<T>(engine: string, fn: () => T, discard: () => void): T {
  const printed: string[] = [];
  const print = console.error;
  console.error = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  try {
    return fn();
  } catch (e) {
    const crashed = e instanceof WebAssembly.RuntimeError ||
      (e instanceof RangeError && /call stack/i.test(e.message));
    if (!crashed) throw e;
    discard();
    // "panicked at <source>:<line>:<column>:\n<message>\n\nStack: ..."
    const panic = printed.join("\n").match(/panicked at [^\n]*\n([^\n]+)/)?.[1]?.trim();
    throw new EngineCrash(engine, panic ?? messageOf(e));
  } finally {
    console.error = print;
  }
}

/**
 * A CommonJS package evaluated again, not taken from the module cache: for
 * wasm-bindgen's Node.js glue (biome's, ruff's), which instantiates its WebAssembly
 * module when evaluated, a new instance with fresh memory.
 */
export function freshCommonJs<T>(specifier: string): T {
  // Resolved from the program's source, where it runs from a bundle too (lib/identity/launch.ts).
  const require = createRequire(sourcePath("main.ts"));
  const id = require.resolve(specifier);
  delete require.cache[id];
  return require(id) as T;
}

/**
 * A WebAssembly engine's functions in an instance a crash may leave unusable (gofmt's, shfmt's, StyLua's, web_fmt's,
 * clang-format's: after their memory went out of bounds once, every later call failed the same way, in a resident
 * process for good): each call runs in {@link wasmCall}; after a crash the next call first gets a new instance
 * (`fresh`), and the crashed file is tried once more in it ({@link againOnCrash}), so a crash is that file's error alone.
 */
export class Renewable<T> {
  #api: T;
  #spent = false;
  constructor(private readonly engine: string, first: T, private readonly fresh: () => Promise<T>) {
    this.#api = first;
  }

  /** `fn` on the current instance's functions. */
  call<R>(fn: (api: T) => R): Promise<R> {
    return againOnCrash(async () => {
      if (this.#spent) {
        this.#api = await this.fresh();
        this.#spent = false;
      }
      return wasmCall(this.engine, () => fn(this.#api), () => this.#spent = true);
    });
  }
}

/** The WebAssembly modules {@link freshInstance} compiled, by URL: compiled once per process. */
const compiled = new Map<string, WebAssembly.Module>();

/**
 * The exports of a new instance of the WebAssembly module `file` beside a package's entry (`entryUrl`, its
 * `import.meta.resolve`), given `imports`: what the package's own glue does once when it is evaluated.
 */
export async function freshInstance(
  entryUrl: string,
  file: string,
  imports?: WebAssembly.Imports,
): Promise<WebAssembly.Exports> {
  const url = new URL(file, entryUrl);
  let module = compiled.get(url.href);
  if (!module) {
    module = new WebAssembly.Module(await Deno.readFile(url));
    compiled.set(url.href, module);
  }
  return new WebAssembly.Instance(module, imports).exports;
}

/** A module of a package's glue beside its entry (`entryUrl`), imported by its URL. */
export async function packagePart<T>(entryUrl: string, file: string): Promise<T> {
  return await import(new URL(file, entryUrl).href) as T;
}

/** How many wasm-bindgen glues {@link freshBindgen} evaluated. */
let glues = 0;

/**
 * wasm-bindgen's glue (`<name>_bg.js`, beside a package's entry, a module that imports nothing) evaluated anew and
 * bound to a new instance of its module (`<name>_bg.wasm`), as the package's entry binds it once. A new evaluation
 * (its text imported as a `data:` URL, numbered: a module is evaluated once per URL, and a package's file once
 * whatever query its URL has), not the package's glue bound again: the glue keeps a view of the memory it was bound
 * to (`cachedUint8ArrayMemory0`), which would go on reading and writing the old instance's memory.
 */
export async function freshBindgen<T>(entryUrl: string, glue: string, wasm: string): Promise<T> {
  // A comment that numbers it: a module is evaluated once per URL, and a `data:` URL is its text.
  const text = `${await Deno.readTextFile(new URL(glue, entryUrl))}\n// poly: instance ${++glues}\n`;
  const bg = await import(`data:text/javascript,${encodeURIComponent(text)}`) as
    & Record<string, unknown>
    & { __wbg_set_wasm(exports: WebAssembly.Exports): void };
  const exports = await freshInstance(entryUrl, wasm, { [`./${glue}`]: bg as unknown as WebAssembly.ModuleImports });
  bg.__wbg_set_wasm(exports);
  (exports.__wbindgen_start as (() => void) | undefined)?.();
  return bg as unknown as T;
}
