/**
 * Writing a report while the run goes: each file's result is encoded and
 * written as it arrives (in report order, see `RunRequest.onResult` in
 * lib/run/types.ts), and the rest of the document (errors, skips, summary,
 * configs, identity) once the run is over. What is written is byte for byte
 * what {@link encodeReport} gives for the whole report.
 *
 * JSON and GitHub annotations are written as the results come. SARIF names
 * its rules before its results, and the human report may summarise its skips
 * or add run errors among the files' blocks: their parts are kept aside, in
 * memory up to {@link SPOOL_MEMORY} and beyond it in a temporary file, until the
 * run is over (the results themselves are not kept). TOON is encoded whole at
 * the end from the results gathered.
 *
 * @example
 * ```ts
 * const writer = reportWriter("json", { color: false, cwd }, { kind: "lint", mode: "check" }, write);
 * const report = await runLint({ paths: [], cwd, onResult: (r) => writer.result(r) });
 * await writer.finish(report);
 * ```
 *
 * @module
 */
import { type EncodeOptions, encodeReport, type ReportFormat } from "./encode.ts";
import { encodeJson } from "./json.ts";
import { canonicalResult } from "./_canonical.ts";
import { sortReport, sortResult } from "./sort.ts";
import { githubResultLines, githubTail } from "./github.ts";
import { HumanReport } from "./human.ts";
import { SarifReport, withRuleIndex } from "./sarif.ts";
import { tallyResults } from "./summary.ts";
import type { ConfigRef, FileResult, Report, RunError, RunSkip } from "./schema.ts";
import { makeTempFile, removeTemp } from "../fs/temp.ts";

/** A report being written: its results one by one, then the rest. */
export interface ReportWriter {
  /** Whether results are written as they come (else gathered and written by {@link ReportWriter.finish}). */
  readonly streams: boolean;
  /** One file's result; results come in report order (by path). */
  result(result: FileResult): Promise<void> | void;
  /** The rest of the report (results not passed to {@link ReportWriter.result}, if any, are written too). */
  finish(report: Report): Promise<void>;
  /**
   * JSON only: writes `text` (or its UTF-8 bytes, as they are), what a JSON writer's `keep` was given for `count`
   * results (a replayed run's, see lib/cache/replay.ts), as if those results had been passed here.
   */
  resume?(text: string | Uint8Array | Iterable<Uint8Array>, count: number): Promise<void>;
  /**
   * JSON only: the text {@link ReportWriter.finish} would write now for `report`, whose results were all passed on
   * (undefined when some were not): what a replayed run writes through {@link ReportWriter.end} rather than encoding
   * the rest of its report again (lib/cache/replay.ts).
   */
  tail?(report: Report): string | undefined;
  /** JSON only: writes `text` (or its UTF-8 bytes), a kept {@link ReportWriter.tail}, in place of `finish`. */
  end?(text: string | Uint8Array): Promise<void>;
  /**
   * JSON only: one result as {@link ReportWriter.result} writes it, given as that result's UTF-8 text (one of a kept
   * run's, see {@link keptResults}), in report order among the others.
   */
  encoded?(bytes: Uint8Array): Promise<void> | void;
}

/** Text or bytes into a writer's chunk: a promise only when it had to be written out (or `force`d). */
type Put = (text: string | Uint8Array, force?: boolean) => Promise<void> | undefined;

/** Bytes gathered before a write: results are small, and one write per result would cost a system call each. */
const CHUNK = 64 * 1024;

const encoder = new TextEncoder();
const COMMA = encoder.encode(",");

/**
 * A writer of `format` for a report of `kind` and `mode` (known before the
 * run: the document's head), writing through `write` (UTF-8 bytes, gathered
 * into chunks; a text too large for one is written as it is).
 */
export function reportWriter(
  format: ReportFormat,
  options: EncodeOptions,
  head: Pick<Report, "kind" | "mode">,
  write: (text: string | Uint8Array) => Promise<void>,
  keep?: (text: string | Uint8Array) => void,
): ReportWriter {
  // Each text is encoded into the chunk as it comes (no joined string to build and encode again at each write).
  let chunk = new Uint8Array(CHUNK);
  let used = 0;
  const flush = async () => {
    if (used === 0) return;
    const out = chunk.subarray(0, used);
    chunk = new Uint8Array(CHUNK);
    used = 0;
    await write(out);
  };
  // Synchronous while the chunk takes the text (a run passes thousands of results; each awaited write costs promises).
  const put: Put = (text, force = false) => {
    if (typeof text === "string" && text.length * 3 <= CHUNK - used) {
      used += encoder.encodeInto(text, chunk.subarray(used)).written;
    } else {
      // A longer text is encoded once, whole (the platform converts all of a text it is asked to encode into a
      // buffer, whatever room the buffer has); bytes that fit go into the chunk, more than a chunk's worth (a
      // replayed run's) is written as it is.
      const bytes = typeof text === "string" ? encoder.encode(text) : text;
      if (bytes.length > CHUNK - used) return putAfterFlush(bytes, force);
      chunk.set(bytes, used);
      used += bytes.length;
    }
    return force ? flush() : undefined;
  };
  const putAfterFlush = async (bytes: Uint8Array, force: boolean) => {
    await flush();
    if (bytes.length >= CHUNK) return await write(bytes);
    chunk.set(bytes, used);
    used += bytes.length;
    if (force) await flush();
  };
  if (format === "json") return jsonWriter(head, put, keep);
  if (format === "github") return githubWriter(head, put);
  if (format === "human") return humanWriter(head, options, put);
  if (format === "sarif") return sarifWriter(head, options, put);
  const gathered: FileResult[] = [];
  return {
    streams: false,
    result(result) {
      gathered.push(result);
      return Promise.resolve();
    },
    async finish(report) {
      await write(encodeReport({ ...report, results: [...gathered, ...report.results] }, format, options));
    },
  };
}

/**
 * JSON as `JSON.stringify(canonical, null, 2)` writes it: the head, each
 * result indented two levels, then the tail cut from the encoding of the rest
 * of the report with no results. `keep` is given the text written for the
 * results passed to `result()` (what {@link ReportWriter.resume} takes back).
 */
function jsonWriter(
  head: Pick<Report, "kind" | "mode">,
  put: Put,
  keep?: (text: string | Uint8Array) => void,
) {
  const opening = `{\n  "kind": ${JSON.stringify(head.kind)},\n  "mode": ${JSON.stringify(head.mode)},\n  "results": [`;
  let count = 0;
  /** The document after the results written so far, for a report whose own results are none. */
  const rest = (report: Report) => restOf(report, count === 0);
  /** One result's UTF-8 text, written (and given to `keep`) after its separator. */
  const written = (bytes: Uint8Array) => {
    const first = count++ === 0;
    keep?.(first ? opening : ",");
    keep?.(bytes);
    const separated = put(first ? opening : COMMA);
    return separated ? separated.then(() => put(bytes)) : put(bytes);
  };
  const writer: ReportWriter = {
    streams: true,
    result: (result) => written(resultJson(result)),
    encoded: written,
    async resume(text, written) {
      count += written;
      if (typeof text === "string" || text instanceof Uint8Array) await put(text);
      // A kept file's pieces: each is written or copied before the next is read into the same buffer.
      else for (const piece of text) await put(piece);
    },
    async finish(report) {
      for (const r of [...report.results].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) {
        await writer.result(r);
      }
      const end = rest({ ...report, results: [] });
      await put(end.bytes ??= encoder.encode(end.text), true);
    },
    tail: (report) => report.results.length > 0 ? undefined : rest(report).text,
    async end(text) {
      await put(text, true);
    },
  };
  return writer;
}

/**
 * The results in what a JSON writer's `keep` was given (a kept run's UTF-8 text, lib/cache/replay.ts), each as
 * {@link ReportWriter.encoded} takes it, with its path: the document's head and the separators left out. A result's
 * text starts with a new line and four spaces, then `{`; every line inside it is indented further (a JSON string holds
 * no raw newline), so each `,` before such a line is a separator between two results. Only the paths are decoded.
 */
export function keptResults(text: Uint8Array): { path: string; bytes: Uint8Array }[] {
  const out: { path: string; bytes: Uint8Array }[] = [];
  let start = -1;
  for (let at = text.indexOf(NEWLINE); at >= 0; at = text.indexOf(NEWLINE, at + 1)) {
    if (!resultStart(text, at)) continue;
    if (start >= 0) out.push(keptResult(text.subarray(start, at - 1))); // up to its separator
    start = at;
  }
  if (start >= 0) out.push(keptResult(text.subarray(start)));
  return out;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const OPEN = 0x7b;
/** A result's first line, up to its path's string: `\n    {\n      "path": `. */
const PATH_AT = '\n    {\n      "path": '.length;

/** Whether a result starts at `at` (a new line, four spaces, `{`, a new line). */
function resultStart(text: Uint8Array, at: number): boolean {
  return text[at + 1] === SPACE && text[at + 2] === SPACE && text[at + 3] === SPACE && text[at + 4] === SPACE &&
    text[at + 5] === OPEN && text[at + 6] === NEWLINE;
}

/** One kept result's bytes with its path (its first member). */
function keptResult(bytes: Uint8Array): { path: string; bytes: Uint8Array } {
  const end = bytes.indexOf(NEWLINE, PATH_AT);
  const line = decoder.decode(bytes.subarray(PATH_AT, end < 0 ? bytes.length : end));
  const path = JSON.parse(line.endsWith(",") ? line.slice(0, -1) : line);
  if (typeof path !== "string") throw new Error("a kept result names no path");
  return { path, bytes };
}

const decoder = new TextDecoder();

/**
 * Each result as a JSON report writes it after its separator (a new line, then the result indented two levels), as
 * UTF-8 bytes, by result: a result is not changed once passed on, and a resident process (`poly daemon`, `poly mcp`)
 * passes the same object again for each file its memo answers, run after run.
 */
const jsonOfResult = new WeakMap<FileResult, Uint8Array>();

function resultJson(result: FileResult): Uint8Array {
  let bytes = jsonOfResult.get(result);
  if (bytes === undefined) {
    const sorted = sortResult(result);
    // A JSON string holds no raw newline: each one here starts a line of the result.
    bytes = encoder.encode(
      `\n    ${JSON.stringify(canonicalResult(sorted) ?? sorted, null, 2).replaceAll("\n", "\n    ")}`,
    );
    jsonOfResult.set(result, bytes);
  }
  return bytes;
}

/**
 * The last end of a JSON document made (see {@link restOf}), and what it was made of: a resident process ends run after
 * run with the same skips and configurations (astro: 3,803 and 543), compared here rather than encoded again.
 */
let lastRest: (Rest & { key: RestKey; first: boolean }) | undefined;

/** The end of a JSON document, and its UTF-8 bytes once written (a replay keeps only the text). */
interface Rest {
  text: string;
  bytes?: Uint8Array;
}

/** What the end of a JSON document is made of, copied (a report's parts may change after it is written). */
interface RestKey {
  kind: Report["kind"];
  mode: Report["mode"];
  errors: RunError[];
  skipped: RunSkip[];
  configs: ConfigRef[];
  summary: string;
  poly: string;
}

/**
 * The JSON document of `report` (whose results are none) from where its results end: all of it when no result came
 * before (`first`), else from the results' closing bracket.
 */
function restOf(report: Report, first: boolean): Rest {
  // A document with workspace jobs is made each time (they are not compared).
  const reusable = report.workspace === undefined && report.results.length === 0;
  if (reusable && lastRest?.first === first && sameRest(lastRest.key, report)) return lastRest;
  const whole = encodeJson(report);
  const marker = '"results": []';
  const text = first ? whole : `\n  ]${whole.slice(whole.indexOf(marker) + marker.length)}`;
  if (!reusable) {
    lastRest = undefined;
    return { text };
  }
  lastRest = { key: keyOf(report), first, text };
  return lastRest;
}

function keyOf(report: Report): RestKey {
  return {
    kind: report.kind,
    mode: report.mode,
    errors: report.errors.map((e) => ({ path: e.path, message: e.message })),
    skipped: report.skipped.map((s) => ({ path: s.path, reason: s.reason })),
    configs: report.configs.map((c) => c.sources ? { hash: c.hash, sources: [...c.sources] } : { hash: c.hash }),
    summary: JSON.stringify(report.summary),
    poly: JSON.stringify(report.poly),
  };
}

/** Whether `report` (without results or workspace jobs) is made of what `key` holds. */
function sameRest(key: RestKey, report: Report): boolean {
  const sameText = (x: string, y: string) => x === y;
  return key.kind === report.kind && key.mode === report.mode &&
    sameList(key.errors, report.errors, (x, y) => x.path === y.path && x.message === y.message) &&
    sameList(key.skipped, report.skipped, (x, y) => x.path === y.path && x.reason === y.reason) &&
    sameList(key.configs, report.configs, (x, y) =>
      x.hash === y.hash &&
      (x.sources === undefined
        ? y.sources === undefined
        : y.sources !== undefined && sameList(x.sources, y.sources, sameText))) &&
    key.summary === JSON.stringify(report.summary) && key.poly === JSON.stringify(report.poly);
}

function sameList<T, U>(a: readonly T[], b: readonly U[], same: (x: T, y: U) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}

/** GitHub workflow commands: each result's annotations as it comes; run errors, skips, jobs and the summary last. */
function githubWriter(head: Pick<Report, "kind" | "mode">, put: Put) {
  const tally = tallyResults([]);
  const writer: ReportWriter = {
    streams: true,
    async result(result) {
      const r = sortResult(result);
      tallyResults([r], tally);
      const lines = githubResultLines(r, head.mode);
      if (lines.length > 0) await put(lines.join("\n") + "\n");
    },
    async finish(report) {
      const sorted = sortReport(report);
      for (const r of sorted.results) await writer.result(r);
      await put(githubTail(sorted, tally).join("\n") + "\n", true);
    },
  };
  return writer;
}

/** What a {@link Spool} keeps in memory before it goes to a temporary file. */
export const SPOOL_MEMORY = 4 * 1024 * 1024;

/** Lines (each without a newline) kept aside in order and read back once: in memory, then in a temporary file. */
export class Spool {
  #lines: string[] = [];
  #size = 0;
  #file?: { path: string; handle: Deno.FsFile };

  constructor(readonly limit = SPOOL_MEMORY) {}

  /** Whether the spool went to a file. */
  get spilled(): boolean {
    return this.#file !== undefined;
  }

  async add(line: string): Promise<void> {
    this.#lines.push(line);
    this.#size += line.length;
    if (this.#size > this.limit) await this.#spill();
  }

  async #spill(): Promise<void> {
    if (!this.#file) {
      const path = await makeTempFile("poly-report-");
      this.#file = { path, handle: await Deno.open(path, { write: true }) };
    }
    const bytes = new TextEncoder().encode(this.#lines.join("\n") + "\n");
    for (let done = 0; done < bytes.length;) done += await this.#file.handle.write(bytes.subarray(done));
    this.#lines = [];
    this.#size = 0;
  }

  /** Every line in the order added (once; the temporary file is removed). */
  async *lines(): AsyncGenerator<string> {
    if (this.#file) {
      await this.#spill();
      const { path, handle } = this.#file;
      handle.close();
      this.#file = undefined;
      try {
        const reader = await Deno.open(path, { read: true });
        const decoder = new TextDecoder();
        let rest = "";
        for await (const chunk of reader.readable) {
          const text = rest + decoder.decode(chunk, { stream: true });
          const parts = text.split("\n");
          rest = parts.pop()!;
          yield* parts;
        }
        rest += decoder.decode();
        if (rest) yield rest;
      } finally {
        await removeTemp(path);
      }
    }
    const lines = this.#lines;
    this.#lines = [];
    this.#size = 0;
    yield* lines;
  }
}

/** Merges two lists each in path order (`a`'s first among equal paths, as a stable sort of `a` then `b` has them). */
async function* merged<T extends { path: string }>(a: AsyncIterable<T>, b: T[]): AsyncGenerator<T> {
  let i = 0;
  for await (const x of a) {
    while (i < b.length && b[i].path < x.path) yield b[i++];
    yield x;
  }
  while (i < b.length) yield b[i++];
}

/** The human report: each file's block rendered as it comes and kept aside; blocks and sections written at the end. */
function humanWriter(
  head: Pick<Report, "kind" | "mode">,
  options: EncodeOptions,
  put: Put,
): ReportWriter {
  const human = new HumanReport(options, head.mode);
  const spool = new Spool();
  const writer: ReportWriter = {
    streams: true,
    async result(result) {
      const block = human.block(sortResult(result));
      if (block.text !== "" || block.skipOnly) {
        await spool.add(JSON.stringify([block.path, block.skipOnly, block.text]));
      }
    },
    async finish(report) {
      const sorted = sortReport(report);
      for (const r of sorted.results) await writer.result(r);
      const end = human.finish(sorted);
      const extra = [...end.blocks].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const blocks = (async function* () {
        for await (const line of spool.lines()) {
          const [path, skipOnly, text] = JSON.parse(line) as [string, boolean, string];
          if (!(end.summarise && skipOnly)) yield { path, text };
        }
      })();
      let first = true;
      for await (const block of merged(blocks, extra)) {
        if (block.text === "") continue;
        await put(`${first ? "" : "\n\n"}${block.text}`);
        first = false;
      }
      for (const section of end.sections) {
        await put(`${first ? "" : "\n\n"}${section}`);
        first = false;
      }
      await put("\n", true);
    },
  };
  return writer;
}

/** SARIF: rules come before results, so each file's SARIF results are kept aside and written at the end. */
function sarifWriter(
  head: Pick<Report, "kind" | "mode">,
  options: EncodeOptions,
  put: Put,
): ReportWriter {
  const sarif = new SarifReport(head.kind, head.mode);
  const spool = new Spool();
  const writer: ReportWriter = {
    streams: true,
    async result(result) {
      for (const x of sarif.add(sortResult(result))) await spool.add(JSON.stringify(x));
    },
    async finish(report) {
      const sorted = sortReport(report);
      for (const r of sorted.results) await writer.result(r);
      const end = sarif.finish(sorted, options);
      let count = 0;
      const write = async (x: Record<string, unknown>) => {
        const text = JSON.stringify(withRuleIndex(x, end.index), null, 2).replaceAll("\n", "\n        ");
        await put(`${count++ === 0 ? "" : ","}\n        ${text}`);
      };
      await put(end.head);
      for await (const line of spool.lines()) await write(JSON.parse(line));
      for (const x of end.extra) await write(x);
      await put(`${count === 0 ? "" : "\n      "}]${end.tail}`, true);
    },
  };
  return writer;
}
