import { DEFAULT_LIVE_CONVERSATIONS } from '../../shared/interviews/live';
import { DEFAULT_CALL_BACK_DAYS, DEFAULT_CALL_BACKS_PER_DAY } from '../../shared/calls/call-backs';
import { DEFAULT_MAX_CONCURRENT_CALLS } from '../../shared/calls/capacity';
import type { CallingWindow } from '../../shared/contact/zones';
import { DEFAULT_CALL_DISCLOSURE } from '../../shared/contact/disclosure';

/** Stored tenants and their API keys. */

/** A workspace is a tenant: its API keys, projects and calls are invisible to every other workspace. */
export interface WorkspaceDoc {
  _id: string;
  name: string;
  /** The sender profile behind the built-in variables sender_first_name … sender_company. */
  sender: { first_name: string; last_name: string; company: string };
  /** Set with the admin CLI (workspace:update); absent means every default. */
  settings?: WorkspaceSettings;
  /**
   * The operator's numbers and sender for this workspace (admin workspace:update); each absent or null is the
   * service's own. A voice or WhatsApp number is claimed by one workspace at most (stores/workspaces.ts).
   */
  numbers?: WorkspaceNumbers;
  /** Set when the workspace's first suppression is filed, so a workspace without any reads no list at contact. */
  has_suppressions?: boolean;
  created_at: Date;
}

export interface WorkspaceNumbers {
  /** The Vapi phone number id its calls are dialled from, and call-backs arrive at. */
  voice?: string | null;
  /** The WhatsApp Cloud API phone number id its templates are sent from, and STOP replies arrive at. */
  whatsapp?: string | null;
  /** The sender of its invitation emails. */
  email_from?: { email: string; name?: string } | null;
}

/** The workspace's own number of this kind, or null where it uses the service's. */
export function ownNumber(workspace: Pick<WorkspaceDoc, 'numbers'> | null, kind: 'voice' | 'whatsapp'): string | null {
  return workspace?.numbers?.[kind] ?? null;
}

/** The workspace's own invitation sender, or null where it uses the service's. */
export function ownEmailFrom(workspace: Pick<WorkspaceDoc, 'numbers'> | null): { email: string; name?: string } | null {
  return workspace?.numbers?.email_from ?? null;
}

export interface WorkspaceSettings {
  /** Whether each call's candidate gets one email with their call's link (docs/call-links.md); off when absent. */
  email_call_links?: boolean;
  /** Whether a candidate who has not started gets one reminder at half the link's time; on by default. */
  interview_reminders?: boolean;
  /** Attempts in progress at once, at most; DEFAULT_MAX_CONCURRENT_CALLS when absent. */
  max_concurrent_calls?: number;
  /** The zone of a candidate whose request names none and whose phone's region has none; UTC when absent. */
  default_timezone?: string;
  /** No dial and no WhatsApp message outside it, in any of the candidate's zones; off when absent or null. */
  calling_window?: CallingWindow | null;
  /** Days after a candidate's calls and interviews end before a daily sweep erases them; off when absent or null. */
  retention_days?: number | null;
  /** Said before every call's first_message; DEFAULT_CALL_DISCLOSURE when absent, none when null. */
  call_disclosure?: string | null;
  /** Where candidates write about their data; the invitations' sender address when absent or null. */
  contact_email?: string | null;
  /** Whether call/initiate refuses a candidate without `consent`; off when absent. */
  voice_consent_required?: boolean;
  /** Dials to one phone in any 24 hours across the workspace's calls, at most; no cap when absent or null. */
  max_dials_per_phone_per_day?: number | null;
  /** Days after a missed dial a call-back is taken; DEFAULT_CALL_BACK_DAYS when absent, none when 0. */
  call_back_days?: number;
  /** Call-backs one call takes in any 24 hours; DEFAULT_CALL_BACKS_PER_DAY when absent. */
  call_backs_per_day?: number;
  live_conversations_at_once?: number;
}

export function defaultTimezone(workspace: Pick<WorkspaceDoc, 'settings'> | null): string {
  return workspace?.settings?.default_timezone ?? 'UTC';
}

export function callingWindowOf(workspace: Pick<WorkspaceDoc, 'settings'> | null): CallingWindow | null {
  return workspace?.settings?.calling_window ?? null;
}

export function callDisclosureOf(workspace: Pick<WorkspaceDoc, 'settings'> | null): string | null {
  const set = workspace?.settings?.call_disclosure;
  return set === undefined ? DEFAULT_CALL_DISCLOSURE : set;
}

export function maxConcurrentCalls(workspace: Pick<WorkspaceDoc, 'settings'> | null): number {
  return workspace?.settings?.max_concurrent_calls ?? DEFAULT_MAX_CONCURRENT_CALLS;
}

/** How long after a missed dial, and how often a day, a call of the workspace takes a call-back. */
export function callBackLimits(workspace: Pick<WorkspaceDoc, 'settings'> | null): { days: number; perDay: number } {
  return {
    days: workspace?.settings?.call_back_days ?? DEFAULT_CALL_BACK_DAYS,
    perDay: workspace?.settings?.call_backs_per_day ?? DEFAULT_CALL_BACKS_PER_DAY,
  };
}

export function remindsCandidates(workspace: Pick<WorkspaceDoc, 'settings'> | null): boolean {
  return workspace?.settings?.interview_reminders !== false;
}

/** Keys are stored only as a SHA-256 hash; the key itself is shown once, at creation. */
export interface ApiKeyDoc {
  _id: string;
  workspace_id: string;
  hash: string;
  /** First characters of the key, so an operator can tell keys apart without the secret. */
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** Dials to one phone in 24 hours across the workspace's calls, at most; null: no cap. */
export function maxDialsPerPhonePerDay(workspace: Pick<WorkspaceDoc, 'settings'> | null): number | null {
  return workspace?.settings?.max_dials_per_phone_per_day ?? null;
}

/** Live interviews the workspace holds at once (its setting, or the default). */
export function liveConversationsAtOnce(workspace: Readonly<WorkspaceDoc> | null): number {
  return workspace?.settings?.live_conversations_at_once ?? DEFAULT_LIVE_CONVERSATIONS;
}
