/**
 * `[rules.overrides."<id>"]` applied to loaded rules: severity, enabled, extra
 * ignores. An override naming no loaded rule is an error at its line in poly.toml,
 * with the closest id suggested.
 *
 * @module
 */
import type { RulesTable } from "./config.ts";
import type { LoadedRule, RuleLoadError } from "./types.ts";

/** Applies `table.overrides` to `rules` in place; returns the problems found. */
export async function applyOverrides(
  rules: LoadedRule[],
  table: RulesTable,
  configFile: string,
): Promise<RuleLoadError[]> {
  const errors: RuleLoadError[] = [];
  const byId = new Map(rules.map((r) => [r.id, r]));
  let configText: string | undefined;
  for (const [id, override] of Object.entries(table.overrides)) {
    const rule = byId.get(id);
    if (!rule) {
      configText ??= await Deno.readTextFile(configFile).catch(() => "");
      const guess = closest(id, [...byId.keys()]);
      errors.push({
        file: configFile,
        ...lineOf(configText, id),
        message: `[rules.overrides."${id}"]: unknown rule id "${id}"${guess ? `: did you mean "${guess}"?` : ""}`,
      });
      continue;
    }
    let severity = override.severity ?? rule.defaultSeverity;
    let enabled = override.enabled ?? severity !== "off";
    if (override.severity === "off") enabled = false;
    // A rule whose file says `off`, enabled by an override without a severity, reports warnings.
    if (enabled && severity === "off") severity = "warning";
    rule.severity = enabled ? severity : "off";
    rule.enabled = enabled;
    if (override.ignores) rule.ignores = [...rule.ignores, ...override.ignores];
  }
  return errors;
}

function lineOf(text: string, id: string): { line?: number; column?: number } {
  const escaped = id.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const patterns = [
    new RegExp(`overrides\\.(?:"${escaped}"|'${escaped}'|${escaped})(?![\\w-])`),
    new RegExp(`(?:"${escaped}"|'${escaped}')\\s*=`),
  ];
  const lines = text.split("\n");
  for (const re of patterns) {
    for (let i = 0; i < lines.length; i++) {
      const m = re.exec(lines[i]);
      if (m) return { line: i + 1, column: m.index + 1 };
    }
  }
  return {};
}

function closest(input: string, ids: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const id of ids.sort()) {
    const d = distance(input.toLowerCase(), id.toLowerCase());
    if (d < bestDistance) {
      best = id;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(input.length, best.length) / 3))
    ? best
    : undefined;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
