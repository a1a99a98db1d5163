/** One example request per operation, shown in the reference and valid against its schema (tested). */
export const EXAMPLES = {
  campaign: { ats_job_id: 'job-42', name: 'Warehouse associates, spring', company_name: 'Acme Logistics' },
  callInitiate: {
    ats_job_id: 'job-42',
    candidates: [{ id: 'cand-1', name: 'Grace Hopper', email: 'grace@example.com', phone: '+14155550123' }],
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
};
