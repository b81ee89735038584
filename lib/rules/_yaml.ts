/**
 * YAML with positions: rule and test files are parsed with npm `yaml` keeping a
 * line counter, so any problem found later (a bad pattern deep in a rule) can be
 * reported at its `file:line:col`.
 *
 * @module
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments } from "yaml";
import type { Document, Node as YamlNode } from "yaml";

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A path into a YAML document: map keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

/** One document of a YAML stream, as plain data plus a way to find positions in it. */
export interface YamlDocument {
  /** The document's value as plain JSON-like data. */
  value: unknown;
  /** Where the document starts. */
  start: Position;
  /**
   * Where the value at `path` starts, or with `key: true` where its key starts.
   * Falls back to the nearest ancestor that exists.
   */
  positionOf(path: YamlPath, options?: { key?: boolean }): Position;
}

/** A YAML syntax error. */
export interface YamlSyntaxError {
  message: string;
  position: Position;
}

/** Result of {@link parseYamlStream}. */
export interface YamlStream {
  documents: YamlDocument[];
  errors: YamlSyntaxError[];
}

/** Parses every document of a YAML stream (`---` separated); empty documents are dropped. */
export function parseYamlStream(text: string): YamlStream {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const docs: Document.Parsed[] = Array.isArray(parsed) ? parsed : [];
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const errors: YamlSyntaxError[] = [];
  const documents: YamlDocument[] = [];
  for (const doc of docs) {
    for (const error of doc.errors) {
      errors.push({ message: firstLine(error.message), position: at(error.pos[0]) });
    }
    if (doc.errors.length > 0 || doc.contents === null) continue;
    const contents = doc.contents as YamlNode;
    documents.push({
      value: doc.toJS({ maxAliasCount: 100 }),
      start: at(contents.range?.[0] ?? 0),
      positionOf(path, options = {}) {
        let node: unknown = contents;
        let best = contents.range?.[0] ?? 0;
        for (let i = 0; i < path.length; i++) {
          const step = path[i];
          const last = i === path.length - 1;
          if (isMap(node)) {
            const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
            if (!pair) break;
            const key = pair.key as YamlNode;
            if (last && options.key) return at(key.range?.[0] ?? best);
            node = pair.value;
            best = (node as YamlNode | null)?.range?.[0] ?? key.range?.[0] ?? best;
          } else if (isSeq(node) && typeof step === "number") {
            node = node.items[step];
            if (!node) break;
            best = (node as YamlNode).range?.[0] ?? best;
          } else {
            break;
          }
        }
        return at(best);
      },
    });
  }
  return { documents, errors };
}

function firstLine(message: string): string {
  return message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}
