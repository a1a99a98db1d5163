/** Builders for interview/invite bodies: a valid request that each test bends in one place. */
export const inviteCandidate = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `cand-${i}`,
  name: `grace HOPPER ${'abcdefghijklmnopqrstuvwxyz'[i % 26]}. ${'x'.repeat(1 + (i % 3))}`,
  email: `Grace.${i}@Example.COM`,
  phone: `+4420790${String(10000 + i).padStart(5, '0')}`,
  ...extra,
});

export const inviteBody = (candidates: unknown[], extra: Record<string, unknown> = {}) => ({
  ats_job_id: 'job-ml-7',
  job_title: 'Senior Data Engineer',
  job_description: 'Own our batch and streaming pipelines end to end, mentor two engineers and work with analysts on data models.',
  min_experience: 5,
  max_experience: 8,
  seniority_level: 'Senior',
  work_type: 'Hybrid',
  employment_type: 'Full Time',
  location: 'London, UK',
  skills_required: ['Python', 'Apache Spark', 'SQL'],
  skills_good_to_have: ['Kafka', 'dbt', 'Airflow'],
  candidates,
  ...extra,
});
