import type { CallDoc } from '../infra/documents/calls';
import { companyOf, type ProjectDoc } from '../infra/documents/projects';
import { callDisclosureOf, type WorkspaceDoc } from '../infra/documents/workspaces';
import { openingLine, returningCallLine } from '../shared/contact/disclosure';
import type { Stores } from '../stores';
import type { AssistantScript } from '../providers/voice/port';

/**
 * What the assistant of a call's attempt says and does, for a dial (activities/call-dial.ts) and a call-back
 * (operations/call-backs.ts) alike: its first words (the workspace's disclosure as it is set now, then the
 * request's first_message, or for a call-back the thanks for returning the call), its instructions, settings
 * and the values it extracts.
 */
export function callScript(
  call: CallDoc,
  { workspace, project }: ScriptSources,
  attempt: number,
  direction: 'outbound' | 'inbound',
): AssistantScript {
  const company = companyOf(project, workspace) ?? workspace?.name ?? 'the hiring company';
  const disclosure = callDisclosureOf(workspace);
  return {
    callId: call._id,
    attempt,
    candidateName: call.candidate.name,
    firstMessage:
      direction === 'outbound'
        ? openingLine(disclosure, company, call.first_message)
        : returningCallLine(disclosure, company, call.first_message),
    instructions: call.instructions,
    assistantSettings: call.assistant_settings,
    extractVariables: call.extract_variables,
  };
}

export interface ScriptSources {
  workspace: Readonly<WorkspaceDoc> | null;
  project: Readonly<ProjectDoc> | null;
}

/** The workspace and the project a call's script is made from, read at once: one round trip per attempt. */
export async function scriptSources(stores: Pick<Stores, 'workspaces' | 'projects'>, call: CallDoc): Promise<ScriptSources> {
  const [workspace, project] = await Promise.all([stores.workspaces.get(call.workspace_id), stores.projects.get(call.project_id)]);
  return { workspace, project };
}
