import type { VNode } from 'preact';
import type { EmploymentType, JobDetails } from '../../shared/jobs/schema';
import { Layout } from '../layout';

/** What the public job page shows: the job, and of the workspace only its company's name. */
export interface JobPageModel {
  job: JobDetails;
  company: string;
  url: string;
  postedAt: Date;
}

const years = (n: number) => `${n} ${n === 1 ? 'year' : 'years'}`;
const experience = (job: JobDetails) =>
  job.min_experience === job.max_experience ? years(job.min_experience) : `${job.min_experience}–${years(job.max_experience)}`;

/** The description's paragraphs, split at blank lines; a paragraph's own line breaks are kept by the stylesheet. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

export function JobPage({ model }: { model: JobPageModel }): VNode {
  const { job, company } = model;
  return (
    <Layout title={`${job.title} at ${company}`} head={<JobPostingData model={model} />}>
      <h1>{job.title}</h1>
      <p class="lede">{company}</p>
      <section class="card" aria-labelledby="facts">
        <h2 id="facts">About the role</h2>
        <dl class="facts">
          <dt>Location</dt>
          <dd>{job.location}</dd>
          <dt>Work</dt>
          <dd>{job.work_type}</dd>
          <dt>Employment</dt>
          <dd>{job.employment_type}</dd>
          <dt>Seniority</dt>
          <dd>{job.seniority_level}</dd>
          <dt>Experience</dt>
          <dd>{experience(job)}</dd>
        </dl>
      </section>
      <Skills id="required" title="Required skills" skills={job.skills_required} />
      <Skills id="nice" title="Nice to have" skills={job.skills_good_to_have} />
      <section class="description" aria-labelledby="description">
        <h2 id="description">Description</h2>
        {paragraphs(job.description).map((p) => (
          <p>{p}</p>
        ))}
      </section>
    </Layout>
  );
}

function Skills({ id, title, skills }: { id: string; title: string; skills: string[] }): VNode | null {
  if (skills.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul class="tags">
        {skills.map((s) => (
          <li>{s}</li>
        ))}
      </ul>
    </section>
  );
}

const EMPLOYMENT: Record<EmploymentType, string> = {
  'Full Time': 'FULL_TIME',
  'Part Time': 'PART_TIME',
  Contract: 'CONTRACTOR',
  Freelance: 'CONTRACTOR',
};

/** schema.org JobPosting, the markup job boards and search engines read. */
export function jobPosting(model: JobPageModel): Record<string, unknown> {
  const { job } = model;
  return {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: job.title,
    description: job.description,
    datePosted: model.postedAt.toISOString(),
    url: model.url,
    employmentType: EMPLOYMENT[job.employment_type],
    hiringOrganization: { '@type': 'Organization', name: model.company },
    jobLocation: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: job.location } },
    ...(job.work_type === 'Remote' ? { jobLocationType: 'TELECOMMUTE' } : {}),
    experienceRequirements: {
      '@type': 'OccupationalExperienceRequirements',
      monthsOfExperience: job.min_experience * 12,
    },
    skills: job.skills_required.join(', '),
  };
}

/**
 * The JSON-LD block. It is data, not script: the CSP does not run it. Its text is JSON with every `<` written
 * as \u003c, so nothing in a job's text can close the element; this is the one place a page writes raw text.
 */
function JobPostingData({ model }: { model: JobPageModel }): VNode {
  const json = JSON.stringify(jobPosting(model))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
