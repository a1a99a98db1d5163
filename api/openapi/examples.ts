import { DEFAULT_CALL_DISCLOSURE } from '../../shared/contact/disclosure';
/** One example request per operation, shown in the reference and valid against its schema (tested). */
export const EXAMPLES = {
  campaign: { ats_job_id: 'job-42', name: 'Warehouse associates, spring', company_name: 'Acme Logistics' },
  callInitiate: {
    ats_job_id: 'job-42',
    candidates: [
      {
        id: 'cand-1',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '+14155550123',
        consent: {
          basis: 'prior_express_written',
          captured_at: '2026-11-20T16:41:09.000Z',
          source: 'Application form, consent checkbox v3',
        },
      },
    ],
    first_message: 'Hi {{candidate_first_name}}, this is {{sender_first_name}} from {{sender_company}}.',
    instructions: 'Ask whether the candidate can start within two weeks and how many years of forklift experience they have.',
    extract_variables: [
      { label: 'available', type: 'boolean', description: 'Can start within two weeks' },
      { label: 'years', type: 'integer', description: 'Years of forklift experience' },
    ],
    call_settings: {
      retry_policy: { conditions: ['missed', 'declined'], intervals: [{ type: 'delay', duration: 2, unit: 'hours' }] },
      working_hours: { monday: [{ start_minute: 540, end_minute: 1020 }], tuesday: [{ start_minute: 540, end_minute: 1020 }] },
    },
  },
  invite: {
    ats_job_id: 'job-77',
    job_title: 'Backend Engineer',
    job_description: 'Build the APIs behind our delivery platform.',
    min_experience: 2,
    max_experience: 5,
    seniority_level: 'Mid',
    work_type: 'Remote',
    employment_type: 'Full Time',
    location: 'Lisbon',
    skills_required: ['TypeScript', 'PostgreSQL', 'AWS'],
    skills_good_to_have: ['Kafka', 'Redis', 'Terraform'],
    candidates: [{ id: 'cand-9', name: 'Ada Lovelace', email: 'ada@example.com' }],
  },
  parseJd: {
    job_description:
      'Senior Backend Engineer (Berlin, hybrid). Full-time. You have 5+ years of experience with Go and PostgreSQL; Kafka is a plus.',
  },
  generateQuestions: { job_title: 'Backend Engineer', job_description: 'Build the APIs behind our delivery platform.', count: 3 },
  generateScript: { job_title: 'Warehouse Associate', job_description: 'Pick and pack orders on day shifts.', call_goal: 'screening' },
  vapiEvent: { message: { type: 'status-update', status: 'ringing', call: { id: 'vapi-call-1' } } },
  whatsappEvent: {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba-1',
        changes: [{ field: 'messages', value: { statuses: [{ id: 'wamid.1', status: 'delivered', timestamp: '1750000000' }] } }],
      },
    ],
  },
  health: { status: 'ok' },
  readiness: { status: 'ready', checks: { database: 'ok', temporal: 'ok', search_attributes: 'ok' } },
  workspace: {
    success: true,
    data: {
      workspace_id: 'ws_3f9c2a61b0e84d17a5c2e901',
      name: 'Acme',
      sender: { first_name: 'Ada', last_name: 'Lovelace', company: 'Acme Inc' },
      settings: {
        default_timezone: 'UTC',
        calling_window: null,
        call_disclosure: DEFAULT_CALL_DISCLOSURE,
        retention_days: null,
        contact_email: null,
        voice_consent_required: false,
        max_dials_per_phone_per_day: null,
        call_back_days: 7,
        call_backs_per_day: 3,
      },
      numbers: { voice: 'a1b2c3d4-vapi-number', whatsapp: '106540352242922', email_from: 'Acme Hiring <jobs@acme.example>' },
    },
  },
  call: {
    success: true,
    data: {
      id: 'call_5d0e7c1f9a2b4c6d8e0f1a2b',
      project_id: 'prj_9514e2b0a9c826d1a0e87858',
      candidate_id: 'cand-1',
      status: 'completed',
      scheduled_for: '2026-11-23T09:00:00.000Z',
      timezones: ['Europe/London'],
      deferrals: [],
      next_attempt_at: null,
      consent: { basis: 'prior_express_written', captured_at: '2026-11-20T16:41:09.000Z', source: 'Application form, consent checkbox v3' },
      attempts: [
        {
          number: 1,
          direction: 'outbound',
          started_at: '2026-11-23T09:00:01.204Z',
          ended_at: '2026-11-23T09:03:12.880Z',
          outcome: 'completed',
          failure_reason: null,
          provider_status: 'ended',
          ended_reason: 'assistant-ended-call',
          recording_url: null,
        },
      ],
      failure_reason: null,
      cancel_reason: null,
      extracted_variables: { available: true, years: 4 },
      extraction_notes: [],
      transcript: [
        { role: 'assistant', text: 'Hi Grace, this is Ada from Acme Inc.' },
        { role: 'candidate', text: 'Hi! Yes, I can start within two weeks.' },
      ],
      messages: [],
      sequence: 4,
      erased_at: null,
      created_at: '2026-11-23T08:59:58.301Z',
      updated_at: '2026-11-23T09:03:13.006Z',
    },
  },
  project: {
    success: true,
    data: {
      id: 'prj_9514e2b0a9c826d1a0e87858',
      ats_job_id: 'job-42',
      name: 'Backend hiring',
      kind: 'campaign',
      project_url: 'https://hiring.example.com/projects/prj_9514e2b0a9c826d1a0e87858',
      job_url: null,
      candidates: { total: 12, by_status: { scheduled: 3, in_progress: 1, completed: 7, failed: 1, cancelled: 0 } },
      created_at: '2026-11-23T08:59:50.002Z',
      updated_at: '2026-11-23T08:59:50.002Z',
    },
  },
  interview: {
    success: true,
    data: {
      id: 'int_7a1c3e5f7b9d1f3a5c7e9b1d',
      project_id: 'prj_2b4d6f8a0c2e4a6c8e0a2c4e',
      candidate_id: 'cand-9',
      status: 'completed',
      interview_url: 'https://hiring.example.com/interview/int_7a1c3e5f7b9d1f3a5c7e9b1d.q3Xb…',
      questions_count: 1,
      questions: [
        { question: 'Walk us through an API you designed with TypeScript and PostgreSQL.', type: 'text', time_limit_seconds: 300 },
      ],
      error: null,
      email: {
        status: 'sent',
        provider: 'sendgrid',
        message_id: 'X-Message-Id-14c5d75ce93',
        sent_at: '2026-11-23T09:00:04.512Z',
        error: null,
      },
      consent: { given_at: '2026-11-24T14:02:10.003Z', text_version: '2026-11-26' },
      ai_assessment: 'allowed',
      ai_assessment_declined_at: null,
      started_at: '2026-11-24T14:02:10.003Z',
      completed_at: '2026-11-24T14:06:51.240Z',
      expires_at: '2026-12-07T09:00:00.118Z',
      reminded_at: null,
      resent_at: null,
      answers: [
        {
          index: 0,
          type: 'text',
          text: 'A billing API: TypeScript on Koa, PostgreSQL with row-level security, idempotency keys on every POST…',
          recording_url: null,
          duration_seconds: null,
          answered_at: '2026-11-24T14:06:40.918Z',
          timed_out: false,
        },
      ],
      assessment: {
        status: 'completed',
        provider: 'openai',
        assessor: { kind: 'openai', model: 'gpt-4o-mini', prompt_version: '2026-11-24', rubric_version: '2026-11-26' },
        questions: [
          {
            index: 0,
            status: 'assessed',
            score: 4,
            skills: ['TypeScript', 'PostgreSQL'],
            evidence: ['TypeScript on Koa, PostgreSQL with row-level security'],
            flags: [],
            transcript: null,
            reason: null,
          },
        ],
        overall: {
          score: 4,
          summary: 'Designed and shipped a billing API with the stack of the role, and names concrete safeguards.',
          recommendation: 'advance',
          answered: 1,
          needs_human_review: false,
        },
        error: null,
        assessed_at: '2026-11-24T14:07:02.511Z',
      },
      review: null,
      review_history: [],
      review_count: 0,
      sequence: 3,
      erased_at: null,
      created_at: '2026-11-23T09:00:00.118Z',
      updated_at: '2026-11-24T14:06:51.240Z',
    },
  },
};

/** An expired invitation after a resend: open again, with a new deadline, the email on its way. */
export const RESENT_INTERVIEW_EXAMPLE = {
  success: true,
  data: {
    ...EXAMPLES.interview.data,
    status: 'invited',
    consent: null,
    started_at: null,
    completed_at: null,
    expires_at: '2026-12-22T10:15:00.000Z',
    reminded_at: '2026-11-30T09:00:00.402Z',
    resent_at: null,
    answers: [],
    assessment: null,
    updated_at: '2026-12-08T10:15:00.000Z',
  },
};

/** A finished interview after a person's second review: the first one moved to the history. */
export const REVIEWED_INTERVIEW_EXAMPLE = {
  success: true,
  data: {
    ...EXAMPLES.interview.data,
    review: {
      decision: 'advance',
      reviewer: 'dana@acme.example',
      note: 'Checked the answer myself: concrete and right for the role.',
      reviewed_at: '2026-11-25T10:30:00.000Z',
      made_by: { via: 'api', key_id: 'key_4k9x2m7q8w1e3r5t' },
    },
    review_history: [
      {
        decision: 'hold',
        reviewer: 'sam@acme.example',
        note: null,
        reviewed_at: '2026-11-24T16:00:00.000Z',
        made_by: { via: 'dashboard', key_id: 'key_4k9x2m7q8w1e3r5t' },
      },
    ],
    review_count: 2,
    sequence: 5,
    updated_at: '2026-11-25T10:30:00.000Z',
  },
};

/** A call cancelled while it waited for its retry: its one attempt missed, no fallback sent. */
export const CANCELLED_CALL_EXAMPLE = {
  success: true,
  data: {
    ...EXAMPLES.call.data,
    status: 'cancelled',
    next_attempt_at: null,
    attempts: [{ ...EXAMPLES.call.data.attempts[0], outcome: 'failed', failure_reason: 'missed', ended_reason: 'customer-did-not-answer' }],
    failure_reason: null,
    cancel_reason: 'requested',
    extracted_variables: null,
    transcript: null,
    sequence: 4,
    updated_at: '2026-11-23T10:12:40.118Z',
  },
};
