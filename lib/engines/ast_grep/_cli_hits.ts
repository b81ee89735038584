/**
 * What one `ast-grep scan` process reported, as the rules batch uses it: the
 * matches of each file it scanned with the expected parser (`collect`), and a
 * file's matches as hits of poly's rules, checked against the text poly read
 * (`toHits`).
 *
 * @module
 */
import { type CliMatch, Misfit, normalize, type Scanned, TextSource } from "./_cli_io.ts";
import { CLI_LANGUAGE, type CliRuleSet } from "./_cli_config.ts";
import type { ParserName } from "./languages.ts";
import { matchHit, type RuleHit } from "./hit.ts";
import type { ScanFile } from "./select.ts";
import type { LoadedRule } from "../../rules/types.ts";

/** What the command line reported for one file it scanned with the expected parser. */
export type CliOutput = CliMatch[];

/**
 * Hands `found` one process's matches for every file of `chunk` it scanned with
 * the parser expected (the entity trace names it; with the summary, the generated
 * sgconfig.yml fixes it by extension).
 */
export function collect(
  chunk: number[],
  args: Map<number, string>,
  candidates: (ParserName | undefined)[],
  scanned: Scanned,
  stdout: string,
  found: (index: number, matches: CliOutput) => void,
): void {
  const byArg = new Map<string, number[]>();
  for (const i of chunk) {
    const key = normalize(args.get(i)!);
    if (!scanned.has(key)) continue;
    const languages = scanned.get(key);
    if (languages && !languages.has(CLI_LANGUAGE[candidates[i]!]!)) continue;
    const list = byArg.get(key);
    if (list) list.push(i);
    else byArg.set(key, [i]);
  }
  const matches = new Map<number, CliOutput>([...byArg.values()].flat().map((i) => [i, []]));
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    const match = JSON.parse(line) as CliMatch;
    for (const i of byArg.get(normalize(match.file)) ?? []) matches.get(i)!.push(match);
  }
  for (const [i, list] of matches) found(i, list);
}

/**
 * The command line's matches of one file as hits of `rules` (the file's rules for
 * `parser`, after `files`/`ignores`); undefined when they do not fit the text poly read.
 */
export function toHits(
  cli: CliRuleSet,
  file: ScanFile,
  parser: ParserName,
  rules: ReadonlySet<LoadedRule>,
  matches: CliMatch[],
): RuleHit[] | undefined {
  if (matches.length === 0) return [];
  const text = new TextSource(file.text);
  const hits: RuleHit[] = [];
  try {
    for (const match of matches) {
      const n = /^poly-(\d+)$/.exec(match.ruleId)?.[1];
      const emitted = n === undefined ? undefined : cli.emitted[Number(n)];
      if (!emitted) return undefined;
      // A rule of another parser matched inside an embedded language (HTML's <script>/<style>):
      // the napi path parses the file with one parser only.
      if (emitted.parser !== parser) continue;
      if (!rules.has(emitted.rule)) continue; // `files`/`ignores`
      const node = text.node(match.range, match.metaVariables);
      if (node.text() !== match.text) return undefined;
      let editRange: { start: number; end: number } | undefined;
      if (emitted.rule.fix !== undefined) {
        const r = match.replacementOffsets;
        editRange = r
          ? { start: text.index(r.start), end: text.index(r.end) }
          : { start: node.range().start.index, end: node.range().end.index };
      }
      hits.push(matchHit(emitted.rule, node, file.text, editRange));
    }
  } catch (error) {
    if (error instanceof Misfit) return undefined;
    throw error;
  }
  return hits;
}
