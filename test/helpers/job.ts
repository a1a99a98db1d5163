import { jobDetails as jobOf } from '../../operations/interview-projects';
import { EXAMPLES } from '../../api/openapi/examples';
import type { JobDetails } from '../../shared/jobs/schema';
import type { InviteRequest } from '../../shared/interviews/schema';

/**
 * One job, as an interview project stores it: the reference's example invitation's (api/openapi/examples.ts),
 * as interview/invite would store it. Each test bends the fields it is about.
 */
export const jobDetails = (overrides: Partial<JobDetails> = {}): JobDetails => ({
  ...jobOf(EXAMPLES.invite as InviteRequest),
  ...overrides,
});

/** A job's fields as interview/invite takes them. */
export function jobFields(job: JobDetails = jobDetails()) {
  const { title, description, ...rest } = job;
  return { job_title: title, job_description: description, ...rest };
}
