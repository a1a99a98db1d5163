import type { JobBrief } from '../jobs/schema';
import { experienceInWords } from '../ai/experience';
import type { CallGoal, CallScript } from '../ai/schema';
import type { ExtractVariable } from './schema';

/**
 * The offline call-script writer: an opening line and agent instructions for a recruiting call, built from the
 * job and the call's goal without a language model. The output is ready for call/initiate: it refers to the
 * candidate and sender only through built-in `{{variables}}`, and caller text is stripped of braces so that
 * nothing in it can read as a variable.
 */
export interface ScriptBrief extends JobBrief {
  company?: string | null;
  goal: CallGoal;
  extract_variables: ExtractVariable[];
}

// Bounds that keep any brief the API accepts within call/initiate's limits (instructions ≤ 20,000 characters).
const DESCRIPTION_EXCERPT = 1500;
const SCREENING_SKILLS = 5;
const LISTED_SKILLS = 15;
const EXTRACTION_LINE = 200;

/** Caller text with every brace removed, so `{{x}}` in a job description never reaches the template engine. */
function literal(text: string): string {
  return text.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
}

function excerpt(text: string, max: number): string {
  const flat = literal(text);
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const sentenceEnd = cut.lastIndexOf('. ');
  return (sentenceEnd > max / 2 ? cut.slice(0, sentenceEnd + 1) : `${cut.slice(0, cut.lastIndexOf(' '))} …`).trim();
}

/** How the agent should phrase and record an answer of each extraction type. */
const ANSWER_FORM: Record<ExtractVariable['type'], (v: ExtractVariable) => string> = {
  string: () => 'a short answer in the candidate’s words',
  single_select: (v) => `exactly one of: ${(v.choices ?? []).map(literal).join(', ')}`,
  boolean: () => 'yes or no',
  integer: () => 'a whole number',
  number: () => 'a number',
  array: () => 'a list of items',
  date: () => 'a calendar date (YYYY-MM-DD)',
  datetime: () => 'a date and time with the candidate’s time zone',
};

function extractionLines(variables: ExtractVariable[]): string[] {
  return variables.map((v) => {
    const example = v.format_example ? ` For example: ${literal(v.format_example)}.` : '';
    return clip(`- ${literal(v.label)}: ${literal(v.description)} Record it as ${ANSWER_FORM[v.type](v)}.${example}`, EXTRACTION_LINE);
  });
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function skillList(skills: string[]): string {
  const shown = skills.slice(0, LISTED_SKILLS).map(literal).join(', ');
  return skills.length > LISTED_SKILLS ? `${shown} and ${skills.length - LISTED_SKILLS} more` : shown;
}

function goalSteps(goal: CallGoal, job: JobBrief, title: string): { purpose: string; steps: string[] } {
  switch (goal) {
    case 'screening': {
      const steps = ['Ask how their current or most recent role relates to this one.'];
      const experience = experienceInWords(job);
      if (experience) steps.push(`The role asks for ${experience} of relevant experience: ask how many years they have.`);
      for (const skill of job.skills_required.slice(0, SCREENING_SKILLS)) {
        steps.push(`Ask about their hands-on experience with ${literal(skill)}: what they did with it and how recently.`);
      }
      if (job.work_type) {
        const where = job.location ? ` (${literal(job.location)})` : '';
        steps.push(`Confirm the working arrangement suits them: the role is ${job.work_type.toLowerCase()}${where}.`);
      } else if (job.location) {
        steps.push(`Confirm the location suits them: ${literal(job.location)}.`);
      }
      if (job.employment_type) steps.push(`Confirm they are looking for ${job.employment_type.toLowerCase()} work.`);
      steps.push('Ask about their notice period or earliest start date.');
      return { purpose: `a short screening call to learn whether the candidate is a good match for the ${title} role`, steps };
    }
    case 'availability_check':
      return {
        purpose: `a quick check that the candidate is still interested in the ${title} role and available for the next step`,
        steps: [
          'Ask whether they are still interested in the role.',
          'Ask whether their situation has changed since they applied (for example a new job or a move).',
          'Ask when they could start if they were offered the role.',
        ],
      };
    case 'interview_scheduling':
      return {
        purpose: `to find a time for the candidate’s interview for the ${title} role`,
        steps: [
          'Confirm they would like to interview for the role.',
          'Ask for two or three dates and times in the next two weeks that suit them, and their time zone.',
          'Ask whether they prefer a video call or a phone call, and confirm the best email address for the invitation.',
          'Do not promise a particular slot: say the team will confirm the time by email.',
        ],
      };
  }
}

export function writeCallScript(brief: ScriptBrief): CallScript {
  const title = literal(brief.title);
  const company = brief.company ? literal(brief.company) : '{{sender_company}}';
  const { purpose, steps } = goalSteps(brief.goal, brief, title);
  const experience = experienceInWords(brief);
  const facts = [
    `Title: ${title}`,
    brief.seniority_level && `Seniority: ${brief.seniority_level}`,
    experience && `Experience: ${experience}`,
    brief.location && `Location: ${literal(brief.location)}`,
    brief.work_type && `Work type: ${brief.work_type}`,
    brief.employment_type && `Employment type: ${brief.employment_type}`,
    brief.skills_required.length > 0 && `Required skills: ${skillList(brief.skills_required)}`,
    brief.skills_good_to_have.length > 0 && `Nice to have: ${skillList(brief.skills_good_to_have)}`,
    `Summary: ${excerpt(brief.description, DESCRIPTION_EXCERPT)}`,
  ].filter((line): line is string => Boolean(line));
  const extraction = extractionLines(brief.extract_variables);

  const instructions = [
    `You are a friendly, professional recruiting assistant calling {{candidate_full_name}} on behalf of {{sender_full_name}} at ${company}. This call is ${purpose}. You are an AI assistant; say so if asked.`,
    '',
    'About the job:',
    ...facts.map((line) => `- ${line}`),
    '',
    'How to run the call:',
    '1. Confirm you are speaking with {{candidate_first_name}} and that now is a good time. If it is not, ask when would be better, thank them and end the call.',
    ...steps.map((step, i) => `${i + 2}. ${step}`),
    `${steps.length + 2}. Ask whether they have any questions. Answer only from the job details above; for anything else, say {{sender_first_name}} will follow up by email.`,
    `${steps.length + 3}. Thank them, explain that {{sender_first_name}} from ${company} will be in touch about next steps, and end the call.`,
    ...(extraction.length > 0
      ? ['', 'Information to collect during the call (ask naturally, one question at a time):', ...extraction]
      : []),
    '',
    'Rules:',
    '- Keep each turn short and ask one question at a time; let the candidate finish speaking.',
    '- Never invent details about the job, salary or company that are not given above.',
    '- Do not ask about age, family, health, religion, nationality or any other protected characteristic.',
    '- If the candidate asks not to be called again, apologise, confirm it will be noted, and end the call.',
    '- If you reach voicemail, leave a brief message with your name, the company and the role, and end the call.',
  ].join('\n');

  const first_message = `Hi {{candidate_first_name}}, this is an AI assistant calling on behalf of {{sender_full_name}} at ${company} about the ${title} role. Is now a good time for a few minutes?`;
  return { first_message, instructions };
}
