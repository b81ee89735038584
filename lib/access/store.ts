/**
 * Members and tokens in the state database. Used by `poly members`, `poly
 * tokens`, the HTTP server (to authenticate every request) and the dashboard
 * (read-only). No MCP tool reaches these functions.
 *
 * @example
 * ```ts
 * const access = new AccessStore(openStore());
 * access.addMember("ana", "member");
 * const { token } = access.createToken({ member: "ana", access: "act" });
 * access.authenticate(token); // → { ok: true, identity: { member: "ana", role: "member", ... } }
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { AccessError } from "./errors.ts";
import { type Access, ACCESS_LEVELS, type Identity, type Role, ROLES } from "./levels.ts";
import { hashToken, looksLikeToken, newSecret, newTokenId } from "./tokens.ts";

/** A member name: letters, digits and `_ . @ -`, up to 64 characters. */
export const MEMBER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

/** One member. */
export interface MemberRecord {
  name: string;
  role: Role;
  created_at: string;
  updated_at: string;
}

/** One token as listed: everything but the secret (and its hash). */
export interface TokenRecord {
  id: string;
  name: string;
  member: string;
  access: Access;
  approvals: boolean;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** active, expired or revoked (at the time of listing). */
  state: "active" | "expired" | "revoked";
}

/** Options of {@link AccessStore.createToken}. */
export interface CreateTokenOptions {
  member: string;
  access: Access;
  approvals?: boolean;
  /** Lifetime in ms (undefined: no expiry). */
  expiresInMs?: number;
  /** A label for listings (default: `<member>-<n>`). */
  name?: string;
}

/** Why a presented token was refused (each answered with 401). */
export type AuthFailure = "missing" | "malformed" | "unknown" | "expired" | "revoked" | "no_member";

/** The outcome of {@link AccessStore.authenticate}. */
export type AuthResult = { ok: true; identity: Identity & { token: string } } | { ok: false; reason: AuthFailure };

/** How often last use is written per token (ms): the listing is accurate to this. */
export const TOUCH_EVERY_MS = 60_000;

interface TokenRow {
  id: string;
  name: string;
  member: string;
  access: string;
  approvals: number;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

function checkName(name: string): void {
  if (!MEMBER_NAME.test(name)) {
    throw new AccessError("invalid", `Invalid member name "${name}": use letters, digits and _ . @ - (at most 64)`);
  }
}

function checkRole(role: string): asserts role is Role {
  if (!ROLES.includes(role as Role)) {
    throw new AccessError("invalid", `Invalid role "${role}": use one of ${ROLES.join(", ")}`);
  }
}

function stateOf(row: TokenRow, now: number): TokenRecord["state"] {
  if (row.revoked_at) return "revoked";
  if (row.expires_at && Date.parse(row.expires_at) <= now) return "expired";
  return "active";
}

function toRecord(row: TokenRow, now: number): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    member: row.member,
    access: row.access as Access,
    approvals: row.approvals === 1,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    state: stateOf(row, now),
  };
}

const TOKEN_COLUMNS = "id, name, member, access, approvals, created_at, expires_at, revoked_at, last_used_at";

/** Members and tokens over one open state database. */
export class AccessStore {
  readonly db: DatabaseSync;
  readonly #now: () => number;
  readonly #touched = new Map<string, number>();

  constructor(db: DatabaseSync, options: { now?: () => number } = {}) {
    this.db = db;
    this.#now = options.now ?? Date.now;
  }

  #iso(ms = this.#now()): string {
    return new Date(ms).toISOString();
  }

  /** Every member, by name. */
  listMembers(): MemberRecord[] {
    return this.db.prepare("SELECT name, role, created_at, updated_at FROM access_members ORDER BY name")
      .all() as unknown as MemberRecord[];
  }

  /** One member, or undefined. */
  getMember(name: string): MemberRecord | undefined {
    return this.db.prepare("SELECT name, role, created_at, updated_at FROM access_members WHERE name = ?")
      .get(name) as unknown as MemberRecord | undefined;
  }

  /** The member, or a not-found error naming the known ones. */
  requireMember(name: string): MemberRecord {
    const m = this.getMember(name);
    if (m) return m;
    const known = this.listMembers().map((x) => x.name);
    throw new AccessError(
      "not_found",
      `No member "${name}"${
        known.length ? `: known members are ${known.join(", ")}` : ": add one with poly members add"
      }`,
    );
  }

  /** Adds a member; refuses a name that exists. */
  addMember(name: string, role: string): MemberRecord {
    checkName(name);
    checkRole(role);
    if (this.getMember(name)) throw new AccessError("conflict", `Member "${name}" exists: use poly members set-role`);
    const at = this.#iso();
    this.db.prepare("INSERT INTO access_members (name, role, created_at, updated_at) VALUES (?, ?, ?, ?)")
      .run(name, role, at, at);
    return this.getMember(name)!;
  }

  /** Changes a member's role; takes effect on the member's next request. */
  setRole(name: string, role: string): { member: MemberRecord; previous: Role } {
    checkRole(role);
    const before = this.requireMember(name);
    this.db.prepare("UPDATE access_members SET role = ?, updated_at = ? WHERE name = ?").run(role, this.#iso(), name);
    return { member: this.getMember(name)!, previous: before.role };
  }

  /** Removes a member and revokes all their tokens (kept, revoked, for the record). */
  removeMember(name: string): { member: MemberRecord; revoked: number } {
    const member = this.requireMember(name);
    const at = this.#iso();
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const r = this.db.prepare("UPDATE access_tokens SET revoked_at = ? WHERE member = ? AND revoked_at IS NULL")
        .run(at, name);
      this.db.prepare("DELETE FROM access_members WHERE name = ?").run(name);
      this.db.exec("COMMIT");
      return { member, revoked: Number(r.changes) };
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Creates a token; the secret is returned here once and never stored. */
  createToken(o: CreateTokenOptions): { token: string; record: TokenRecord } {
    const member = this.requireMember(o.member);
    if (!ACCESS_LEVELS.includes(o.access)) {
      throw new AccessError("invalid", `Invalid access "${o.access}": use read or act`);
    }
    if (o.name !== undefined && !/^[\w .@:-]{1,64}$/.test(o.name)) {
      throw new AccessError(
        "invalid",
        `Invalid token name "${o.name}": at most 64 letters, digits, spaces and _ . @ : -`,
      );
    }
    const id = newTokenId();
    const token = newSecret(id);
    const now = this.#now();
    const count = (this.db.prepare("SELECT COUNT(*) AS n FROM access_tokens WHERE member = ?").get(member.name) as {
      n: number;
    }).n;
    const name = o.name ?? `${member.name}-${count + 1}`;
    const expires = o.expiresInMs === undefined ? null : this.#iso(now + o.expiresInMs);
    this.db.prepare(
      `INSERT INTO access_tokens (id, name, member, hash, access, approvals, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, name, member.name, hashToken(token), o.access, o.approvals ? 1 : 0, this.#iso(now), expires);
    return { token, record: this.getToken(id)! };
  }

  /** One token (never its secret), or undefined. */
  getToken(id: string): TokenRecord | undefined {
    const row = this.db.prepare(`SELECT ${TOKEN_COLUMNS} FROM access_tokens WHERE id = ?`).get(id) as
      | TokenRow
      | undefined;
    return row ? toRecord(row, this.#now()) : undefined;
  }

  /** Tokens, newest first; only those of `member` when given; revoked and expired ones only with `all`. */
  listTokens(o: { member?: string; all?: boolean } = {}): TokenRecord[] {
    const rows =
      (o.member === undefined
        ? this.db.prepare(`SELECT ${TOKEN_COLUMNS} FROM access_tokens ORDER BY created_at DESC, id`).all()
        : this.db.prepare(`SELECT ${TOKEN_COLUMNS} FROM access_tokens WHERE member = ? ORDER BY created_at DESC, id`)
          .all(o.member)) as unknown as TokenRow[];
    const now = this.#now();
    return rows.map((r) => toRecord(r, now)).filter((t) => o.all || t.state === "active");
  }

  /** Revokes a token by id or name; refused from the next request on. */
  revokeToken(idOrName: string): { record: TokenRecord; changed: boolean } {
    let record = this.getToken(idOrName);
    if (!record) {
      const byName = this.listTokens({ all: true }).filter((t) => t.name === idOrName);
      if (byName.length > 1) {
        throw new AccessError(
          "conflict",
          `Several tokens are named "${idOrName}": revoke by id (${byName.map((t) => t.id).join(", ")})`,
        );
      }
      record = byName[0];
    }
    if (!record) throw new AccessError("not_found", `No token "${idOrName}": poly tokens list --all shows them`);
    if (record.revoked_at) return { record, changed: false };
    this.db.prepare("UPDATE access_tokens SET revoked_at = ? WHERE id = ?").run(this.#iso(), record.id);
    return { record: this.getToken(record.id)!, changed: true };
  }

  /**
   * Checks a presented token: its hash must be known, not revoked, not expired,
   * and its member must still exist. The member's role is read now, so a
   * demotion applies to the very next request. Records last use (at most once a
   * minute per token, so a busy server does not write on every request).
   */
  authenticate(presented: string | undefined): AuthResult {
    if (!presented) return { ok: false, reason: "missing" };
    if (!looksLikeToken(presented)) return { ok: false, reason: "malformed" };
    const row = this.db.prepare(
      `SELECT t.id, t.member, t.access, t.approvals, t.expires_at, t.revoked_at, m.role
         FROM access_tokens t LEFT JOIN access_members m ON m.name = t.member
        WHERE t.hash = ?`,
    ).get(hashToken(presented)) as
      | {
        id: string;
        member: string;
        access: string;
        approvals: number;
        expires_at: string | null;
        revoked_at: string | null;
        role: string | null;
      }
      | undefined;
    if (!row) return { ok: false, reason: "unknown" };
    if (row.revoked_at) return { ok: false, reason: "revoked" };
    const now = this.#now();
    if (row.expires_at && Date.parse(row.expires_at) <= now) return { ok: false, reason: "expired" };
    if (!row.role) return { ok: false, reason: "no_member" };
    this.#touch(row.id, now);
    return {
      ok: true,
      identity: {
        member: row.member,
        role: row.role,
        access: row.access,
        approvals: row.approvals === 1,
        token: row.id,
      },
    };
  }

  #touch(id: string, now: number): void {
    const last = this.#touched.get(id);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    this.#touched.set(id, now);
    try {
      this.db.prepare("UPDATE access_tokens SET last_used_at = ? WHERE id = ?").run(this.#iso(now), id);
    } catch {
      // Busy beyond the timeout: last use is informational, the request goes on.
      this.#touched.delete(id);
    }
  }
}
