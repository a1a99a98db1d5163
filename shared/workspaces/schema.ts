import { Type, type Static } from '@sinclair/typebox';

/** GET /api/public/v1/workspace: which workspace a key belongs to, with the sender behind the sender_* variables. */
export const WorkspaceResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    workspace_id: Type.String(),
    name: Type.String(),
    sender: Type.Object({ first_name: Type.String(), last_name: Type.String(), company: Type.String() }),
  }),
});
export type WorkspaceResponse = Static<typeof WorkspaceResponse>;
