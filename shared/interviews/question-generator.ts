import { experienceInWords } from '../ai/experience';
import {
  DEFAULT_TIME_LIMIT_SECONDS,
  type JobBrief,
  type Question,
  type QuestionType,
  type SeniorityLevel,
  type WorkType,
} from '../jobs/schema';

/**
 * The offline question generator: sound interview questions built from the job itself (title, skills,
 * experience, seniority, work type) without a language model. Deterministic, so the same job always gets
 * the same questions. Questions come in priority order and the first `count` are kept.
 */
export const DEFAULT_QUESTION_COUNT = 8;

type Band = 'early' | 'mid' | 'senior';
const BAND: Record<SeniorityLevel, Band> = {
  Entry: 'early',
  Mid: 'mid',
  Senior: 'senior',
  Lead: 'senior',
  Principal: 'senior',
  Staff: 'senior',
};

const SKILL_QUESTIONS: Record<Band, Array<(skill: string) => string>> = {
  early: [
    (s) => `Describe a project, at work, in study or on your own, where you used ${s}. What did you learn from it?`,
    (s) => `How would you explain ${s} to someone who has never used it, and where have you applied it yourself?`,
  ],
  mid: [
    (s) => `Walk us through a recent piece of work where ${s} was central. What trade-offs did you make and why?`,
    (s) => `Tell us about a problem involving ${s} that took you longer than expected to solve. How did you get to the answer?`,
  ],
  senior: [
    (s) =>
      `Describe the most complex problem you have solved with ${s}. How did you shape the approach, and what would you do differently today?`,
    (s) => `How do you judge whether ${s} is the right choice for a problem, and when have you decided against it?`,
  ],
};

const SENIORITY_QUESTIONS: Record<Band, string> = {
  early: 'How do you go about learning a new tool or technique quickly? Give a recent example.',
  mid: 'Tell us about a time you disagreed with a teammate about how to do something. How was it resolved?',
  senior: 'Describe a decision you led that affected several people or teams. How did you build agreement, and how did it turn out?',
};

const WORK_TYPE_QUESTIONS: Partial<Record<WorkType, string>> = {
  Remote: 'This role is remote. How do you keep your work visible and stay in close touch with your team when you work remotely?',
  Hybrid: 'This role is hybrid. How do you organise your work between office days and remote days?',
};

// Enough general questions that any job, even one with no skills named, yields the maximum of 20.
const GENERAL_QUESTIONS = [
  'What kind of team and way of working helps you do your best work?',
  'Tell us about a piece of work you are proud of. What was your part in it?',
  'Describe a time you received difficult feedback. What did you change afterwards?',
  'How do you decide what to work on first when several things are urgent?',
  'Tell us about a mistake you made at work and how you handled it.',
  'Where would you like to grow professionally over the next two years?',
  'Tell us about a time you had to learn something unfamiliar under time pressure. How did you approach it?',
  'Describe a situation where you had to work with someone whose style was very different from yours.',
  'Tell us about a time you improved a process or a way of working. What changed as a result?',
  'How do you make sure the quality of your work stays high when deadlines are tight?',
  'Describe a time you had to explain something complex to someone outside your field.',
  'Tell us about a goal you set for yourself at work and how you went about reaching it.',
  'How do you handle a situation where the requirements of a task are unclear?',
  'Describe a time you went beyond what was asked of you. What prompted it?',
  'What would your previous manager or colleagues say is your greatest strength?',
];

function question(text: string, type: QuestionType = 'video'): Question {
  return { question: text, type, time_limit_seconds: DEFAULT_TIME_LIMIT_SECONDS[type] };
}

function distinct(skills: string[]): string[] {
  const seen = new Set<string>();
  return skills
    .map((s) => s.trim())
    .filter((s) => {
      const key = s.toLowerCase();
      if (!s || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

export function generateQuestions(job: JobBrief, count = DEFAULT_QUESTION_COUNT): Question[] {
  // Without a stated seniority the questions take the middle register.
  const band: Band = job.seniority_level ? BAND[job.seniority_level] : 'mid';
  const required = distinct(job.skills_required);
  const niceToHave = distinct(job.skills_good_to_have).filter((s) => !required.some((r) => r.toLowerCase() === s.toLowerCase()));
  const templates = SKILL_QUESTIONS[band];
  const title = job.title.trim();

  const out: Question[] = [question(`Tell us about your background and what draws you to the ${title} role.`)];
  // The first three required skills get a question each, ahead of everything else; the rest follow later.
  required.slice(0, 3).forEach((skill, i) => out.push(question(templates[i % templates.length](skill))));
  const experience = experienceInWords(job);
  out.push(
    question(
      experience
        ? `This role asks for ${experience} of experience. Which part of your experience prepares you best for it, and why?`
        : 'Which part of your experience prepares you best for this role, and why?',
    ),
  );
  const workType = job.work_type ? WORK_TYPE_QUESTIONS[job.work_type] : undefined;
  if (workType) out.push(question(workType));
  out.push(question(SENIORITY_QUESTIONS[band]));
  out.push(question(`In a few paragraphs, describe how you would approach your first 30 days as ${title}.`, 'text'));
  if (niceToHave[0]) {
    out.push(question(`How familiar are you with ${niceToHave[0]}? If the role needed more of it, how would you get up to speed?`));
  }
  required.slice(3).forEach((skill, i) => out.push(question(templates[(i + 1) % templates.length](skill))));
  niceToHave
    .slice(1)
    .forEach((skill) =>
      out.push(question(`What experience do you have with ${skill}, and how have you used it alongside your core skills?`)),
    );
  // Second questions on the main skills, for callers who ask for many questions about a short skill list.
  required.slice(0, 3).forEach((skill, i) => out.push(question(templates[(i + 1) % templates.length](skill))));
  for (const text of GENERAL_QUESTIONS) out.push(question(text));
  out.push(question('Is there anything else about your experience that you would like us to know?', 'text'));

  const unique = out.filter((q, i) => out.findIndex((o) => o.question === q.question) === i);
  return unique.slice(0, Math.max(1, Math.min(count, unique.length)));
}
