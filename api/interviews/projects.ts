import { MongoServerError } from 'mongodb';
import type { Database } from '../../infra/database';
import type { ProjectDoc } from '../../infra/records';
import { newId } from '../../infra/ids';
import { ConflictError } from '../../shared/errors';
import type { JobDetails } from '../../shared/schemas/job';
import type { InviteRequest } from '../../shared/schemas/interview-invite';

export function jobDetails(req: InviteRequest): JobDetails {
  return {
    title: req.job_title.trim(),
    description: req.job_description.trim(),
    min_experience: req.min_experience,
    max_experience: req.max_experience,
    seniority_level: req.seniority_level,
    work_type: req.work_type,
    employment_type: req.employment_type,
    location: req.location.trim(),
    skills_required: req.skills_required.map((s) => s.trim()),
    skills_good_to_have: req.skills_good_to_have.map((s) => s.trim()),
  };
}

/**
 * The workspace's interview project for an ats_job_id: created on first use, afterwards renamed to the
 * latest job_title and given the latest job details. A campaign project with that ats_job_id is a conflict.
 */
export async function ensureInterviewProject(db: Database, workspaceId: string, req: InviteRequest): Promise<ProjectDoc> {
  const job = jobDetails(req);
  const now = new Date();
  const filter = { workspace_id: workspaceId, ats_job_id: req.ats_job_id, kind: 'interview' as const };
  const update = {
    $set: { name: job.title, job_title: job.title, job, updated_at: now },
    $setOnInsert: { _id: newId('prj'), company_name: null, question_set: null, created_at: now },
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return (await db.projects.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' }))!;
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === 11000) || attempt > 0) throw err;
    }
    // The unique (workspace_id, ats_job_id) index refused the insert: either a concurrent invite created the
    // project (the retry finds it) or the ats_job_id belongs to a campaign.
    const existing = await db.projects.findOne({ workspace_id: workspaceId, ats_job_id: req.ats_job_id });
    if (existing?.kind === 'campaign') {
      throw new ConflictError(`ats_job_id ${req.ats_job_id} already belongs to a call campaign project, not an interview project`);
    }
  }
}
