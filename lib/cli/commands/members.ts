/**
 * `poly members add|list|set-role|remove`: who may hold tokens for `poly mcp
 * --http`, and with which role (viewer only reads; member and admin act as
 * their tokens say). A role change applies to the member's next request;
 * removing a member revokes their tokens. docs/http.md.
 *
 * @module
 */
import { argument, choice, command, constant, message, object, option, or, string, withDefault } from "../_optique.ts";
import { defineCommand } from "../command.ts";
import { formatOption, jsonText } from "../output.ts";
import { type Role, ROLES } from "../../access/levels.ts";

type Format = "human" | "json";

const format = formatOption(["human", "json"]);
const name = argument(string({ metavar: "NAME" }), { description: message`Member name.` });

const add = command(
  "add",
  object({
    action: constant("add" as const),
    name,
    role: withDefault(
      option("--role", choice(ROLES), { description: message`viewer (reads only), member or admin` }),
      "member" as const,
    ),
    format,
  }),
  { brief: message`Add a member.` },
);
const list = command("list", object({ action: constant("list" as const), format }), {
  brief: message`List members, their roles and active tokens.`,
});
const setRole = command(
  "set-role",
  object({
    action: constant("set-role" as const),
    name,
    role: argument(choice(ROLES), { description: message`The new role.` }),
    format,
  }),
  { brief: message`Change a member's role (effective on their next request).` },
);
const remove = command("remove", object({ action: constant("remove" as const), name, format }), {
  brief: message`Remove a member and revoke their tokens.`,
});

type MembersValue =
  | { action: "add"; name: string; role: Role; format: Format }
  | { action: "list"; format: Format }
  | { action: "set-role"; name: string; role: Role; format: Format }
  | { action: "remove"; name: string; format: Format };

/** `poly members`. */
export const membersCommand = defineCommand<MembersValue>({
  parser: command("members", or(add, list, setRole, remove), {
    brief: message`Manage the members who may hold access tokens for poly mcp --http.`,
  }),
  async run(value, io) {
    const { accessStores } = await import("../../access/mod.ts");
    const { renderMembers } = await import("../../access/render.ts");
    const { access } = accessStores();
    const out = (doc: unknown, text: string) => io.stdout(value.format === "json" ? jsonText(doc) : text);
    switch (value.action) {
      case "list": {
        const members = access.listMembers();
        await out({ members }, renderMembers(members, access.listTokens()));
        return 0;
      }
      case "add": {
        const member = access.addMember(value.name, value.role);
        await out({ member }, `Added member "${member.name}" as ${member.role}.\n`);
        return 0;
      }
      case "set-role": {
        const { member, previous } = access.setRole(value.name, value.role);
        await out(
          { member, previous },
          previous === member.role
            ? `Member "${member.name}" is already ${member.role}.\n`
            : `Member "${member.name}" is now ${member.role} (was ${previous}); it applies to their next request.\n`,
        );
        return 0;
      }
      case "remove": {
        const { member, revoked } = access.removeMember(value.name);
        await out({ member, revoked }, `Removed member "${member.name}" and revoked ${revoked} token(s).\n`);
        return 0;
      }
    }
  },
});
