import type { CallDoc } from '../infra/documents/calls';
import { companyOf, type ProjectDoc } from '../infra/documents/projects';
import { callDisclosureOf, type WorkspaceDoc } from '../infra/documents/workspaces';
import { aiQuestionRule, callBackGreeting, identityGateInstructions, openingLine, returningCallLine } from '../shared/contact/disclosure';
import type { Stores } from '../stores';
import { IDENTITY_TOOL } from '../shared/calls/call-backs';
import type { AssistantScript, CallBackGate } from '../providers/voice/port';

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
    // The ATS's script, then the one rule no script may drop: asked, the assistant says it is an AI.
    instructions: `${call.instructions}\n\n${aiQuestionRule('an AI assistant')}`,
    assistantSettings: call.assistant_settings,
    extractVariables: call.extract_variables,
  };
}

/**
 * What answers a call-back until the caller says who they are (operations/call-backs.ts): the company's name
 * and the workspace's disclosure, a question for the caller's full name, and instructions to check it; the
 * call's voice settings and extraction, which name no one. The candidate's name, the job and the ATS's script
 * come only with the identity's confirmation.
 */
export function callBackGate(call: CallDoc, { workspace, project }: ScriptSources, attempt: number): CallBackGate {
  const company = companyOf(project, workspace) ?? workspace?.name ?? 'the hiring company';
  return {
    callId: call._id,
    attempt,
    firstMessage: openingLine(callDisclosureOf(workspace), company, callBackGreeting(company)),
    instructions: identityGateInstructions(company, IDENTITY_TOOL),
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
