import { DEFAULT_LIVE_CONVERSATIONS } from '../interviews/live';
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from '../schema-builders';
import type { Issue } from '../errors';
import { callingWindowProblem, clockMinute } from '../contact/zones';
import { DEFAULT_CALL_DISCLOSURE } from '../contact/disclosure';

const LocalTime = (what: string) =>
  Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$',
    description: `The window's ${what}, a local time (HH:MM, 24:00 for the end of the day).`,
    errorMessage: 'must be a local time such as 08:00 (HH:MM, up to 24:00)',
  });

/** No dial and no WhatsApp message outside it, in any of the candidate's zones; emails are not held back. */
export const CallingWindow = Strict(
  { start: LocalTime('start'), end: LocalTime('end') },
  { description: "Every day, in the candidate's local time. Null turns it off." },
);

/** The settings a workspace changes itself (PATCH /workspace); the others are the operator's (admin CLI). */
const Settings = {
  default_timezone: Type.String({
    format: 'time-zone',
    maxLength: 64,
    description: "The zone of a candidate whose request names none and whose phone number's region has none. UTC by default.",
    errorMessage: 'must be an IANA time zone name such as America/Chicago',
  }),
  calling_window: Type.Union([CallingWindow, Type.Null()], {
    errorMessage: 'must be null (off) or {"start": "HH:MM", "end": "HH:MM"}, local times such as 08:00 and 21:00',
  }),
  retention_days: Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], {
    description:
      "Days after a candidate's calls and interviews have all ended before a daily sweep erases the candidate (docs/erasure.md). Null, the default, keeps them until erased.",
    errorMessage: 'must be null (off) or a whole number of days from 1 to 3650',
  }),
  call_disclosure: Type.Union([Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }), Type.Null()], {
    description:
      "Said before every call's first_message: that an automated AI assistant is calling, for whom (`{{company}}`, the call's company), and that the call is recorded. " +
      `On by default ("${DEFAULT_CALL_DISCLOSURE}"); null turns it off, where the law lets the workspace do without it.`,
    errorMessage: 'must be null (off) or a text of 1 to 500 characters',
  }),
  contact_email: Type.Union([Type.String({ maxLength: 254, format: 'email' }), Type.Null()], {
    description:
      "Where a candidate writes about their data (the interview page's notice names it). Null, the default, names the invitations' sender address.",
    errorMessage: 'must be null (the sender address) or an email address',
  }),
  voice_consent_required: Type.Boolean({
    description:
      "Whether every candidate of call/initiate must carry `consent` (the TCPA's prior express consent to an AI voice call); without it the candidate fails and nothing is written. Off by default.",
    errorMessage: 'must be true or false',
  }),
  max_dials_per_phone_per_day: Type.Union([Type.Integer({ minimum: 1, maximum: 20 }), Type.Null()], {
    description:
      "Dials to one phone in any 24 hours, across the workspace's calls, at most; a dial over it waits until it would not be (`deferrals` reason `daily_dial_cap`). Null, the default, is no cap.",
    errorMessage: 'must be null (off) or a whole number from 1 to 20',
  }),
  call_back_days: Type.Integer({
    minimum: 0,
    maximum: 30,
    description:
      'Days after a missed dial during which a candidate calling the number back is taken as an attempt of the call (docs/calls.md). 7 by default; 0 turns call-backs off.',
    errorMessage: 'must be a whole number of days from 0 (off) to 30',
  }),
  live_conversations_at_once: Type.Integer({
    minimum: 1,
    maximum: 500,
    description: `Live interviews the workspace holds at once (docs/live-interviews.md); one more is refused with 503 and Retry-After until one ends. ${DEFAULT_LIVE_CONVERSATIONS} by default.`,
    errorMessage: 'must be a whole number from 1 to 500',
  }),
  email_call_links: Type.Boolean({
    description:
      "Whether each call's candidate who has an email address gets one email, when the call is made, with their link to it (call me now, pick a time, answer in writing: docs/call-links.md). Off by default.",
    errorMessage: 'must be true or false',
  }),
  call_backs_per_day: Type.Integer({
    minimum: 1,
    maximum: 10,
    description: 'Call-backs one call takes in any 24 hours, at most; past it a caller hears that nothing is pending. 3 by default.',
    errorMessage: 'must be a whole number from 1 to 10',
  }),
};

const SETTING_NAMES = Object.keys(Settings) as Array<keyof typeof Settings>;

/** PATCH /api/public/v1/workspace: the fields given change; the others stay as they are. */
export const WorkspaceUpdateRequest = Strict(
  {
    default_timezone: Type.Optional(Settings.default_timezone),
    calling_window: Type.Optional(Settings.calling_window),
    call_disclosure: Type.Optional(Settings.call_disclosure),
    retention_days: Type.Optional(Settings.retention_days),
    contact_email: Type.Optional(Settings.contact_email),
    voice_consent_required: Type.Optional(Settings.voice_consent_required),
    max_dials_per_phone_per_day: Type.Optional(Settings.max_dials_per_phone_per_day),
    call_back_days: Type.Optional(Settings.call_back_days),
    call_backs_per_day: Type.Optional(Settings.call_backs_per_day),
    live_conversations_at_once: Type.Optional(Settings.live_conversations_at_once),
    email_call_links: Type.Optional(Settings.email_call_links),
  },
  { minProperties: 1, errorMessage: `must set at least one of ${SETTING_NAMES.join(', ')}` },
);
export type WorkspaceUpdateRequest = Static<typeof WorkspaceUpdateRequest>;

/** A window that is empty or inverted (start not before end) is refused, naming calling_window. */
export function workspaceUpdateRules(input: unknown): Issue[] {
  const window = (input as Partial<WorkspaceUpdateRequest> | null)?.calling_window;
  // A window whose times are not HH:MM is the schema's to refuse.
  if (!window || typeof window.start !== 'string' || typeof window.end !== 'string') return [];
  if (clockMinute(window.start) === null || clockMinute(window.end) === null) return [];
  const problem = callingWindowProblem(window);
  return problem ? [{ path: ['calling_window'], message: problem }] : [];
}

/** GET and PATCH /api/public/v1/workspace: which workspace a key belongs to, its sender and its contact settings. */
export const WorkspaceResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    workspace_id: Type.String(),
    name: Type.String(),
    sender: Type.Object({ first_name: Type.String(), last_name: Type.String(), company: Type.String() }),
    settings: Type.Object(Settings),
    numbers: Type.Object(
      {
        voice: Type.Union([Type.String(), Type.Null()], {
          description:
            "The Vapi phone number id the workspace's calls are dialled from and call-backs reach; null where none is configured.",
        }),
        whatsapp: Type.Union([Type.String(), Type.Null()], {
          description: 'The WhatsApp phone number id its templates are sent from and STOP replies reach; null where none is configured.',
        }),
        email_from: Type.String({ description: 'The sender of its invitation emails, `Name <address>` or the address alone.' }),
      },
      {
        description:
          "The numbers candidates see, the workspace's own where the operator gave it some (admin workspace:update), else the service's. Only the operator changes them.",
      },
    ),
  }),
});
export type WorkspaceResponse = Static<typeof WorkspaceResponse>;
