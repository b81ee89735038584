/**
 * Finds where a key is written in TOML text. smol-toml reports no key positions,
 * so this small scanner walks the (already parsed, hence valid) text and records
 * the first place each dotted key path is defined: table headers `[a.b]`, array
 * tables `[[a]]` (indexed), dotted keys `a.b = 1`, inline tables and array elements.
 *
 * @module
 */

/** A 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A path into the parsed document: keys and array indices. */
export type KeyPath = readonly (string | number)[];

const SEP = "\u0000";
const BARE = /[A-Za-z0-9_-]/;

/**
 * Where each key path of `text` is first defined. The text is scanned on the
 * first question, not before: every loaded file has a locator, and few are asked
 * (a table of 100,000 keys costs a scan only when something in it is wrong).
 */
export class KeyLocator {
  readonly #text: string;
  readonly #lineStarts: number[] = [0];
  readonly #positions = new Map<string, number>();
  readonly #arrayTables = new Map<string, number>();
  #i = 0;
  #scanned = false;

  constructor(text: string) {
    this.#text = text;
  }

  #ready(): void {
    if (this.#scanned) return;
    this.#scanned = true;
    const text = this.#text;
    for (let k = 0; k < text.length; k++) if (text[k] === "\n") this.#lineStarts.push(k + 1);
    try {
      this.#scan();
    } catch {
      // The text parsed already; anything unexpected here only costs precision.
    }
  }

  /** The position of `path`, or of its nearest recorded ancestor, or line 1 column 1. */
  locate(path: KeyPath): TextPosition {
    this.#ready();
    for (let n = path.length; n > 0; n--) {
      const offset = this.#positions.get(path.slice(0, n).map(String).join(SEP));
      if (offset !== undefined) return this.#toPosition(offset);
    }
    return { line: 1, column: 1 };
  }

  /** Whether `path` itself (not an ancestor) was found. */
  has(path: KeyPath): boolean {
    return this.offset(path) !== undefined;
  }

  /** The string index where `path` itself (not an ancestor) is written, or undefined. */
  offset(path: KeyPath): number | undefined {
    this.#ready();
    return this.#positions.get(path.map(String).join(SEP));
  }

  #toPosition(offset: number): TextPosition {
    let lo = 0;
    let hi = this.#lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.#lineStarts[lo] + 1 };
  }

  #record(path: string[], offset: number): void {
    for (let n = 1; n <= path.length; n++) {
      const key = path.slice(0, n).join(SEP);
      if (!this.#positions.has(key)) this.#positions.set(key, offset);
    }
  }

  #peek(ahead = 0): string {
    return this.#text[this.#i + ahead] ?? "";
  }

  #skipBlank(newlines: boolean): void {
    for (;;) {
      const c = this.#peek();
      if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) this.#i++;
      else if (c === "#") { while (this.#i < this.#text.length && this.#peek() !== "\n") this.#i++; }
      else return;
    }
  }

  #scan(): void {
    let table: string[] = [];
    while (this.#i < this.#text.length) {
      this.#skipBlank(true);
      if (this.#i >= this.#text.length) return;
      const start = this.#i;
      if (this.#peek() === "[") {
        const isArray = this.#peek(1) === "[";
        this.#i += isArray ? 2 : 1;
        const keys = this.#key().map((k) => k.name);
        this.#i += isArray ? 2 : 1;
        table = this.#resolveHeader(keys, isArray);
        this.#record(table, start);
      } else {
        this.#keyValue(table);
      }
      this.#skipBlank(false);
      if (this.#peek() === "\n") this.#i++;
      else if (this.#i < this.#text.length && this.#i === start) this.#i++;
    }
  }

  /** Inserts the current index after every prefix that is an array of tables. */
  #resolveHeader(keys: string[], isArray: boolean): string[] {
    const path: string[] = [];
    keys.forEach((key, n) => {
      path.push(key);
      const id = path.join(SEP);
      const last = n === keys.length - 1;
      if (last && isArray) {
        const count = (this.#arrayTables.get(id) ?? 0) + 1;
        this.#arrayTables.set(id, count);
        path.push(String(count - 1));
      } else if (this.#arrayTables.has(id)) {
        path.push(String(this.#arrayTables.get(id)! - 1));
      }
    });
    return path;
  }

  #keyValue(prefix: string[]): void {
    const start = this.#i;
    const keys = this.#key().map((k) => k.name);
    const path = [...prefix, ...keys];
    this.#record(path, start);
    this.#skipBlank(false);
    if (this.#peek() === "=") this.#i++;
    this.#skipBlank(false);
    this.#value(path);
  }

  #key(): { name: string }[] {
    const keys: { name: string }[] = [];
    for (;;) {
      this.#skipBlank(false);
      const c = this.#peek();
      if (c === '"') keys.push({ name: this.#basicString() });
      else if (c === "'") keys.push({ name: this.#literalString() });
      else {
        let name = "";
        while (BARE.test(this.#peek())) name += this.#text[this.#i++];
        keys.push({ name });
      }
      this.#skipBlank(false);
      if (this.#peek() !== ".") return keys;
      this.#i++;
    }
  }

  #value(path: string[]): void {
    const c = this.#peek();
    if (c === '"' || c === "'") {
      if (this.#peek(1) === c && this.#peek(2) === c) this.#multiline(c);
      else if (c === '"') this.#basicString();
      else this.#literalString();
    } else if (c === "[") {
      this.#i++;
      for (let index = 0;; index++) {
        this.#skipBlank(true);
        if (this.#peek() === "]" || this.#i >= this.#text.length) break;
        this.#record([...path, String(index)], this.#i);
        this.#value([...path, String(index)]);
        this.#skipBlank(true);
        if (this.#peek() === ",") this.#i++;
      }
      this.#i++;
    } else if (c === "{") {
      this.#i++;
      for (;;) {
        this.#skipBlank(false);
        if (this.#peek() === "}" || this.#i >= this.#text.length) break;
        this.#keyValue(path);
        this.#skipBlank(false);
        if (this.#peek() === ",") this.#i++;
      }
      this.#i++;
    } else {
      while (this.#i < this.#text.length && !",]}\n#".includes(this.#peek())) this.#i++;
    }
  }

  #basicString(): string {
    let out = "";
    this.#i++;
    while (this.#i < this.#text.length && this.#peek() !== '"') {
      if (this.#peek() === "\\") {
        const e = this.#peek(1);
        if (e === "u" || e === "U") {
          const len = e === "u" ? 4 : 8;
          out += String.fromCodePoint(parseInt(this.#text.slice(this.#i + 2, this.#i + 2 + len), 16));
          this.#i += 2 + len;
          continue;
        }
        out += ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[e] ?? e;
        this.#i += 2;
        continue;
      }
      out += this.#text[this.#i++];
    }
    this.#i++;
    return out;
  }

  #literalString(): string {
    const end = this.#text.indexOf("'", this.#i + 1);
    const out = this.#text.slice(this.#i + 1, end);
    this.#i = end + 1;
    return out;
  }

  #multiline(quote: string): void {
    const fence = quote.repeat(3);
    let k = this.#i + 3;
    for (;;) {
      const end = this.#text.indexOf(fence, k);
      if (end < 0) {
        this.#i = this.#text.length;
        return;
      }
      if (quote === '"' && this.#text[end - 1] === "\\") {
        k = end + 1;
        continue;
      }
      let stop = end + 3;
      while (this.#text[stop] === quote && stop - end < 5) stop++;
      this.#i = stop;
      return;
    }
  }
}

/** The line of `text` at `position`, framed with its number and a caret under the column. */
export function excerpt(text: string, position: TextPosition): string {
  const lineText = (text.split("\n")[position.line - 1] ?? "").replace(/\r$/, "");
  const gutter = String(position.line);
  const pad = lineText.slice(0, Math.max(0, position.column - 1)).replace(/[^\t]/g, " ");
  return ` ${gutter} | ${lineText}\n ${" ".repeat(gutter.length)} | ${pad}^`;
}
