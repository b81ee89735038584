/**
 * A corpus of real-looking (and fake) credentials, generated at test time so no
 * secret-shaped literal sits in the repository, each in the context it usually
 * leaks from: .env files, JSON configs, shell history, HTTP logs, PEM files.
 *
 * @module
 */

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x;
  };
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const AN = UPPER + LOWER + DIGITS;
const B64 = AN + "+/";
const URLSAFE = AN + "-_";
const HEX = "0123456789abcdef";

function pick(alphabet: string, n: number, next: () => number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[next() % alphabet.length];
  // Keep at least one digit, as real keys have.
  return /[0-9]/.test(s) || !/[0-9]/.test(alphabet) ? s : s.slice(0, -1) + "7";
}

/** One secret: its kind (as the scrubber names it), the value, and a line it leaks in. */
export interface SecretSample {
  kind: string;
  value: string;
  line: string;
}

/** The corpus. */
export function secretCorpus(seed = 42): SecretSample[] {
  const n = rng(seed);
  const j = (...parts: string[]) => parts.join("");
  const jwt = j(
    "eyJ",
    pick(URLSAFE, 30, n),
    ".eyJ",
    pick(URLSAFE, 60, n),
    ".",
    pick(URLSAFE, 43, n),
  );
  const pemBody = Array.from({ length: 6 }, () => pick(B64, 64, n)).join("\n");
  const samples: SecretSample[] = [
    { kind: "openai-key", value: j("sk", "-proj-", pick(URLSAFE, 56, n)), line: "OPENAI_API_KEY=$V" },
    { kind: "openai-key", value: j("sk", "-", pick(AN, 48, n)), line: 'client = OpenAI(api_key="$V")' },
    {
      kind: "anthropic-key",
      value: j("sk", "-ant-api03-", pick(URLSAFE, 93, n), "AA"),
      line: "export ANTHROPIC_API_KEY='$V'",
    },
    {
      kind: "anthropic-key",
      value: j("sk", "-ant-oat01-", pick(URLSAFE, 80, n)),
      line: '{"claudeAiOauth":{"accessToken":"$V"}}',
    },
    {
      kind: "openrouter-key",
      value: j("sk", "-or-v1-", pick(HEX, 64, n)),
      line: "Authorization header set from OPENROUTER_API_KEY=$V",
    },
    {
      kind: "github-token",
      value: j("gh", "p_", pick(AN, 36, n)),
      line: "git clone https://github.com/acme/x (token $V)",
    },
    { kind: "github-token", value: j("gh", "s_", pick(AN, 36, n)), line: "GITHUB_TOKEN: $V" },
    {
      kind: "github-token",
      value: j("github", "_pat_", pick(AN, 22, n), "_", pick(AN, 59, n)),
      line: "gh auth login --with-token <<< $V",
    },
    { kind: "aws-access-key-id", value: j("AK", "IA", pick(UPPER + "234567", 16, n)), line: "aws_access_key_id = $V" },
    {
      kind: "aws-secret-key",
      value: pick(B64, 40, n),
      line: "aws_secret_access_key = $V",
    },
    { kind: "google-api-key", value: j("AI", "za", pick(URLSAFE, 35, n)), line: "const firebase = { apiKey: '$V' };" },
    {
      kind: "slack-token",
      value: j("xo", "xb-", pick(DIGITS, 12, n), "-", pick(DIGITS, 13, n), "-", pick(AN, 24, n)),
      line: "SLACK_BOT_TOKEN=$V",
    },
    {
      kind: "slack-token",
      value: j("xo", "xp-", pick(DIGITS, 12, n), "-", pick(DIGITS, 12, n), "-", pick(HEX, 32, n)),
      line: "slack token: $V",
    },
    { kind: "bearer-token", value: pick(URLSAFE, 40, n), line: "> Authorization: Bearer $V" },
    { kind: "jwt", value: jwt, line: "session cookie: $V" },
    { kind: "stripe-key", value: j("sk", "_live_", pick(AN, 24, n)), line: "STRIPE_SECRET=$V" },
    { kind: "xai-key", value: j("xa", "i-", pick(AN, 80, n)), line: "XAI_API_KEY=$V" },
    { kind: "url-credentials", value: pick(AN, 16, n), line: "DATABASE_URL=postgres://app:$V@db.internal:5432/app" },
    { kind: "secret", value: pick(AN, 20, n), line: 'password: "$V"' },
    {
      kind: "private-key",
      value: pemBody,
      line: j("-----BEGIN ", "OPENSSH PRIVATE KEY-----\n$V\n-----END ", "OPENSSH PRIVATE KEY-----"),
    },
    {
      kind: "private-key",
      value: pick(B64, 64, n),
      line: j("-----BEGIN ", "RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n$V\n-----END ", "RSA PRIVATE KEY-----"),
    },
  ];
  return samples.map((s) => ({ ...s, line: s.line.replace("$V", s.value) }));
}

/** Text that looks technical but holds no secret: must pass untouched. */
export const INNOCENT = [
  "const id = '3f2b8c1e-9a4d-4e7b-8c2a-1d9e0f6b7a53'; // a uuid",
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
  "task-runner-configuration-loader is in src/task.ts:42",
  "The risk-assessment-for-the-whole-team document",
  "password: see the vault (rotated monthly)",
  "let token = tokens.next(); // lexer",
  "Authorization: Bearer <token>",
  "sha256-K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=",
  "import { skip } from './sk-utils';",
  "https://example.com/docs/api-keys#rotating",
  "AKIAIOSFODNN7EXAMPL is too short to be a key id",
];
