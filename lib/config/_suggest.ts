/**
 * "Did you mean" suggestions: the closest allowed name by edit distance
 * (optimal string alignment: insertions, deletions, substitutions, transpositions).
 *
 * @module
 */

/** Edit distance between `a` and `b`, counting an adjacent transposition as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[rows - 1][cols - 1];
}

/**
 * The allowed name closest to `input`, or undefined when none is close enough
 * (at most a third of the longer name's length, and at least one edit allowed).
 * A case-only difference always counts as close. Ties go to the alphabetically
 * first. When nothing is that close, a name that `input` (3+ characters) is a
 * prefix of, or that is a prefix of `input`, is suggested (`warn` → `warning`).
 */
export function suggest(input: string, allowed: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of [...allowed].sort()) {
    if (candidate === input) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    const limit = Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined && lower.length >= 3) {
    best = [...allowed].sort().find((c) =>
      c !== input && c.length >= 3 && (c.toLowerCase().startsWith(lower) || lower.startsWith(c.toLowerCase()))
    );
  }
  return best;
}
