/**
 * Schema checks, remembered. zod and poly's schemas cost ~90 ms of every run's
 * start (the package's modules, then the schemas' tables, built as their modules
 * load) for the same few tables each time: every `poly.toml`, the merged
 * configuration, the `[rules]` table. What a schema made of a value is remembered
 * per build of poly's code (`codeIdentity()`) in
 * `<cache home>/config/valid-<code>.json`, keyed by SHA-256 of the schema's name and
 * the value; the schemas (`_schemas.ts`) load only for a value the memo has not
 * seen. A value a schema rejects is never remembered: its problems come from the
 * schema every time.
 *
 * @module
 */
import type { z } from "zod";
import { digestOf } from "../cache/digest.ts";
import { codeMemoPath, readMemoFile, writeMemoFile } from "../cache/build.ts";

/** The schemas checked through the memo (`_schemas.ts` holds them). */
export type SchemaName = "config" | "rules" | "lock";

/** What `safeParse` gives: zod's own result, or the remembered data. */
export type Checked<T> = { success: true; data: T } | { success: false; error: z.ZodError };

/** The memo files' name prefix. */
const PREFIX = "valid-";

/** Values remembered per memo file, newest kept. */
const MEMO_ENTRIES = 500;

/** The memo: what this build's schemas made of the values they accepted. */
export class ValidMemo {
  /** Key → the schema's output as JSON. */
  #entries: Record<string, string> = {};

  private constructor(readonly path: string) {}

  /** Opens the memo at `path` (default: this build's file under the cache home). */
  static async open(path?: string): Promise<ValidMemo> {
    path ??= await codeMemoPath("config", PREFIX);
    const memo = new ValidMemo(path);
    const value = readMemoFile(path);
    if (value && typeof value === "object" && !Array.isArray(value)) memo.#entries = value as Record<string, string>;
    return memo;
  }

  /**
   * zod's `safeParse` of `value` with schema `name`, answered from the memo when
   * this build's schema accepted the same value before (the data is then a fresh
   * copy, as JSON gives it back).
   */
  async safeParse<T>(name: SchemaName, value: unknown): Promise<Checked<T>> {
    const key = digestOf(`${name}\0${keyJson(value)}`);
    const hit = this.#entries[key];
    if (hit !== undefined) return { success: true, data: JSON.parse(hit) as T };
    const { SCHEMAS } = await import("./_schemas.ts");
    const result = SCHEMAS[name].safeParse(value) as Checked<T>;
    if (result.success) {
      this.#entries[key] = JSON.stringify(result.data);
      await this.#save();
    }
    return result;
  }

  /**
   * Whether `value` passes `check` (a check outside zod: an engine's own
   * settings schema), answered from the memo when this build's check passed the
   * same value before; a value that passes is remembered, one that fails never is.
   */
  async passes(name: string, value: unknown, check: () => Promise<boolean>): Promise<boolean> {
    const key = digestOf(`${name}\0${keyJson(value)}`);
    if (this.#entries[key] !== undefined) return true;
    if (!(await check())) return false;
    this.#entries[key] = "true";
    await this.#save();
    return true;
  }

  /** Writes the memo (the newest entries kept). */
  async #save(): Promise<void> {
    const keys = Object.keys(this.#entries);
    this.#entries = Object.fromEntries(keys.slice(-MEMO_ENTRIES).map((k) => [k, this.#entries[k]]));
    await writeMemoFile(this.path, this.#entries, PREFIX);
  }
}

let memo: Promise<ValidMemo> | undefined;

/** {@link ValidMemo.safeParse} with this build's memo. */
export async function safeParse<T>(name: SchemaName, value: unknown): Promise<Checked<T>> {
  memo ??= ValidMemo.open();
  return await (await memo).safeParse<T>(name, value);
}

/** {@link ValidMemo.passes} with this build's memo. */
export async function passes(name: string, value: unknown, check: () => Promise<boolean>): Promise<boolean> {
  memo ??= ValidMemo.open();
  return await (await memo).passes(name, value, check);
}

/** JSON of a value where a TOML date stays distinguishable from a string (a schema may take one and not the other). */
function keyJson(value: unknown): string {
  return JSON.stringify(value, function (key, v) {
    const raw = (this as Record<string, unknown>)[key];
    return raw instanceof Date ? { "\0date": raw.toISOString() } : v;
  });
}
