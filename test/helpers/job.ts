import type { JobDetails } from '../../shared/jobs/schema';

/** One job, as an interview project stores it; each test bends the fields it is about. */
export const jobDetails = (overrides: Partial<JobDetails> = {}): JobDetails => ({
  title: 'Backend Engineer',
  description: 'Build APIs.',
  min_experience: 2,
  max_experience: 5,
  seniority_level: 'Mid',
  work_type: 'Remote',
  employment_type: 'Full Time',
  location: 'Lisbon',
  skills_required: ['TypeScript', 'PostgreSQL', 'AWS'],
  skills_good_to_have: ['Kafka', 'Redis', 'Terraform'],
  ...overrides,
});
