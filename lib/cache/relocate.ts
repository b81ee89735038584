/**
 * What makes a result-cache key the same in two checkouts of a repository at different paths: the
 * repository's anchor, wherever a key's text names it as a path, written as one token.
 *
 * A key's prefix is made from the engine's effective configuration, which names the files and
 * folders it came from by absolute path (the configuration files, the rule folders, the package
 * manifests), and from each file's context (ESLint's, go vet's). Two clones of one repository —
 * two people's, or a runner's and a laptop's — made different keys for every result, so a remote
 * cache shared nothing between them. {@link relocated} writes the anchor (the folder itself, or
 * any path below it) as {@link ANCHOR_TOKEN}; paths outside the anchor (a configuration in the
 * user's home, a host tool) stay as they are, so a result depends on the same files in both.
 *
 * A text that already holds the token (a configuration value with that escape in it) is not
 * relocated but marked (`!` first, which no relocated JSON text starts with): two texts relocate
 * to the same text only when they are the same up to where the anchor is.
 *
 * A stored result that names the anchor itself (a message quoting an absolute path) is not
 * portable: {@link mentionsAnchor} tells the result cache to keep it with that path (db.ts), a miss
 * for every other checkout that shares the cache (a worktree, a remote cache's other machines).
 *
 * @example
 * ```ts
 * relocated('{"configDir":"/home/me/repo/pkg"}', "/home/me/repo"); // '{"configDir":"\\u0000/pkg"}'
 * relocated('{"configDir":"/home/me/repo-2"}', "/home/me/repo"); // unchanged: another folder
 * ```
 *
 * @module
 */

/**
 * The anchor's stand-in, as it appears in JSON text: the escape of a NUL character, which no path
 * and no file name holds.
 */
export const ANCHOR_TOKEN = "\\u0000";

/** How JSON text names an anchor: its escaped form (for a plain search first) and its pattern as a path. */
interface AnchorText {
  escaped: string;
  pattern: RegExp;
}

/** {@link AnchorText} per anchor (null: too short to tell). */
const patterns = new Map<string, AnchorText | null>();

/**
 * The anchor as a path in JSON text: its JSON-escaped form (without a trailing separator), not
 * inside a longer name before it (`/x/home/me/repo`) or after it (`/home/me/repo-2`), followed by
 * a separator, a quote, a space or a delimiter, or at the end. None for an anchor too short to
 * tell (`/`).
 */
function patternFor(anchor: string): AnchorText | null {
  let known = patterns.get(anchor);
  if (known !== undefined) return known;
  const escaped = JSON.stringify(anchor).slice(1, -1).replace(/[\\/]+$/, "");
  known = escaped.length < 2 ? null : {
    escaped,
    pattern: new RegExp(
      `(?<![\\w.~@+#%$\\-/\\\\])${RegExp.escape(escaped)}(?![^/\\\\"'\\s,;:)\\]}])`,
      "g",
    ),
  };
  if (patterns.size > 64) patterns.clear();
  patterns.set(anchor, known);
  return known;
}

/**
 * `json` (a JSON text) with every mention of `anchor` as a path written as {@link ANCHOR_TOKEN};
 * marked with a leading `!` and left as it is when it already holds the token. Without an anchor,
 * `json` itself.
 */
export function relocated(json: string, anchor: string | undefined): string {
  if (!anchor) return json;
  if (json.includes(ANCHOR_TOKEN)) return `!${json}`;
  const text = patternFor(anchor);
  return text && json.includes(text.escaped) ? json.replace(text.pattern, ANCHOR_TOKEN) : json;
}

/**
 * Whether `json` (a stored result, as JSON text) names `anchor` (or `realAnchor`, the folder it
 * resolves to) as a path: such a result is bound to that path.
 */
export function mentionsAnchor(json: string, anchor: string, realAnchor?: string): boolean {
  for (const path of realAnchor && realAnchor !== anchor ? [anchor, realAnchor] : [anchor]) {
    const text = patternFor(path);
    // A formatted file's text is a value too: the plain search first, the pattern only where it may match.
    if (text && json.includes(text.escaped)) {
      text.pattern.lastIndex = 0;
      if (text.pattern.test(json)) return true;
    }
  }
  return false;
}
