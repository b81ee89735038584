/**
 * The credential scrubber. Worker output, error messages, logs, stored previews
 * and everything sent to `decide` pass through {@link scrub} first, so a secret
 * an engine happened to print never reaches the caller's context, the state
 * database or OpenRouter.
 *
 * Each pattern names what it found: `[REDACTED:github-token]`. Patterns are
 * anchored on the shapes providers document (prefixes, lengths, alphabets), so
 * ordinary code and prose pass untouched.
 *
 * @module
 */

interface Pattern {
  kind: string;
  re: RegExp;
  /** Replace only this capture group (the value after a key name), not the whole match. */
  group?: number;
  /** Keeps a match (returns false) that is not a secret after all; gets the groups and the text after the match. */
  accept?: (groups: (string | undefined)[], after: string) => boolean;
}

/** Words that, after `password:` or `token =`, name a type or a placeholder rather than a value. */
const NOT_A_VALUE = new Set([
  "string",
  "number",
  "boolean",
  "bool",
  "str",
  "int",
  "bytes",
  "null",
  "nil",
  "none",
  "undefined",
  "true",
  "false",
  "any",
  "unknown",
  "optional",
  "required",
  "redacted",
  "hidden",
  "see",
  "is",
  "it",
]);

/**
 * Whether the value of a secret-named assignment (groups: 1 the key, 2 the separator, 3 an opening quote,
 * 4 the value) is a value: not code (`req.body.password`, `getpass()`, `$VAR`, `\${VAR}`, `<your token>`),
 * not a type or placeholder word (`string`, `********`), not a count after a token key (`max_token=4096`),
 * and, unless quoted or written `key=value`, the last word of its clause
 * (`password: see the vault` is prose).
 */
function assignedValue(groups: (string | undefined)[], after: string): boolean {
  const sep = groups[2] ?? "";
  const quote = groups[3] ?? "";
  const value = groups[4] ?? "";
  if (NOT_A_VALUE.has(value.toLowerCase())) return false;
  if (/^[$<{%]/.test(value) || /[()]/.test(value)) return false;
  if (/^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+$/.test(value)) return false;
  if (/^(.)\1*$/.test(value) && value.length > 1) return false;
  if (value.length >= 12) return true;
  if (/^\d+$/.test(value) && /token/i.test(groups[1] ?? "")) return false;
  if (quote) return after.startsWith(quote);
  if (sep === "=") return true;
  // `token: Token` declares a field of a type.
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)*$/.test(value)) return false;
  return /^[ \t]*(?:$|[\r\n,;}&)])/.test(after);
}

const PATTERNS: Pattern[] = [
  // PEM private keys (RSA, EC, OPENSSH, PKCS#8, encrypted): the whole block.
  {
    kind: "private-key",
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g,
  },
  // A PEM header whose end was cut off: redact to the end of the text.
  { kind: "private-key", re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*$/g },
  // Anthropic: sk-ant-api03-..., sk-ant-oat01-...
  { kind: "anthropic-key", re: /\bsk-ant-[A-Za-z0-9]{2,8}-[A-Za-z0-9_-]{20,}/g },
  // OpenRouter: sk-or-v1-<64 hex>
  { kind: "openrouter-key", re: /\bsk-or-v1-[A-Za-z0-9]{32,}/g },
  // OpenAI: sk-proj-..., sk-svcacct-..., sk-admin-..., legacy sk-<48>
  { kind: "openai-key", re: /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}/g },
  // Stripe-style live/test secret keys.
  { kind: "stripe-key", re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  // GitHub: classic and fine-grained tokens, app/user/server/refresh tokens.
  { kind: "github-token", re: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { kind: "github-token", re: /\bgh[pousr]_[A-Za-z0-9]{36,}/g },
  // GitLab personal access tokens.
  { kind: "gitlab-token", re: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  // AWS access key ids.
  { kind: "aws-access-key-id", re: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  // AWS secret access keys: 40 base64 characters after a key name that says so.
  {
    kind: "aws-secret-key",
    re: /(aws_?secret_?(?:access_?)?key(?:_id)?["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 2,
  },
  // Google API keys.
  { kind: "google-api-key", re: /\bAIza[0-9A-Za-z_-]{35}/g },
  // Google OAuth client secrets and refresh tokens.
  { kind: "google-oauth", re: /\bGOCSPX-[A-Za-z0-9_-]{20,}/g },
  { kind: "google-oauth", re: /\b1\/\/0[A-Za-z0-9_-]{30,}/g },
  // Slack tokens and webhooks.
  { kind: "slack-token", re: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: "slack-webhook", re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  // xAI keys.
  { kind: "xai-key", re: /\bxai-[A-Za-z0-9]{20,}/g },
  // npm tokens.
  { kind: "npm-token", re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  // Hugging Face tokens.
  { kind: "huggingface-token", re: /\bhf_[A-Za-z0-9]{30,}/g },
  // JSON Web Tokens (header.payload.signature, both base64url JSON objects).
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // Authorization headers: bearer and basic credentials.
  { kind: "bearer-token", re: /(\bbearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/gi, group: 2 },
  { kind: "basic-auth", re: /(\bauthorization:\s*basic\s+)([A-Za-z0-9+/]{12,}=*)/gi, group: 2 },
  // Credentials inside URLs: scheme://user:password@host
  { kind: "url-credentials", re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]{3,})(@)/gi, group: 2 },
  // Generic assignments whose key names a secret, whatever the value's length: API_KEY=...,
  // "password": "...", passwd: x. Values that read as code, types, placeholders or prose are kept
  // (see assignedValue()).
  {
    kind: "secret",
    re:
      /((?<![A-Za-z0-9])(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|password|passwd|secret|token)["']?)(\s*[:=]\s*)(["']?)([^\s"'`,;&]+)/gi,
    group: 4,
    accept: assignedValue,
  },
];

/** What {@link scrubWithReport} found. */
export interface ScrubReport {
  text: string;
  /** How many secrets of each kind were redacted. */
  found: Record<string, number>;
}

/** Redacts every credential in `text`, and reports what it found. */
export function scrubWithReport(text: string): ScrubReport {
  const found: Record<string, number> = {};
  let out = text;
  for (const { kind, re, group, accept } of PATTERNS) {
    re.lastIndex = 0;
    out = out.replace(re, (...m: unknown[]) => {
      const groups = m.slice(0, -2) as (string | undefined)[];
      const whole = groups[0] ?? "";
      if (whole.includes("[REDACTED:")) return whole;
      if (accept) {
        const at = m[m.length - 2] as number;
        const source = m[m.length - 1] as string;
        if (!accept(groups, source.slice(at + whole.length))) return whole;
      }
      found[kind] = (found[kind] ?? 0) + 1;
      if (group === undefined) return `[REDACTED:${kind}]`;
      let rebuilt = "";
      for (let i = 1; i < groups.length; i++) rebuilt += i === group ? `[REDACTED:${kind}]` : groups[i] ?? "";
      return rebuilt;
    });
  }
  return { text: out, found };
}

/** Redacts every credential in `text`. */
export function scrub(text: string): string {
  return scrubWithReport(text).text;
}
