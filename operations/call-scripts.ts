import type { CallDoc } from '../infra/documents/calls';
import { companyOf } from '../infra/documents/projects';
import { callDisclosureOf, type WorkspaceDoc } from '../infra/documents/workspaces';
import { openingLine, returningCallLine } from '../shared/contact/disclosure';
import type { Stores } from '../stores';

/**
 * What the assistant of a call's attempt says and does, for a dial (activities/call-dial.ts) and a call-back
 * (operations/call-backs.ts) alike: its first words (the workspace's disclosure as it is set now, then the
 * request's first_message, or for a call-back the thanks for returning the call), its instructions, settings
 * and the values it extracts.
 */
export async function callScript(
  stores: Pick<Stores, 'projects'>,
  call: CallDoc,
  workspace: Readonly<WorkspaceDoc> | null,
  attempt: number,
  direction: 'outbound' | 'inbound',
) {
  const project = await stores.projects.get(call.project_id);
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

export type CallScript = Awaited<ReturnType<typeof callScript>>;
