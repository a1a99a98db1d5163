import { Type, type Static } from '@sinclair/typebox';
import { Enum } from '../schema-builders';

/** The job vocabulary shared by the invite operation and job-description parsing. */
export const SENIORITY_LEVELS = ['Entry', 'Mid', 'Senior', 'Lead', 'Principal', 'Staff'] as const;
export const WORK_TYPES = ['Remote', 'On Site', 'Hybrid'] as const;
export const EMPLOYMENT_TYPES = ['Full Time', 'Part Time', 'Contract', 'Freelance'] as const;
export const QUESTION_TYPES = ['text', 'video', 'audio'] as const;

export type SeniorityLevel = (typeof SENIORITY_LEVELS)[number];
export type WorkType = (typeof WORK_TYPES)[number];
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const SeniorityLevel = Enum(SENIORITY_LEVELS);
export const WorkType = Enum(WORK_TYPES);
export const EmploymentType = Enum(EMPLOYMENT_TYPES);
export const QuestionType = Enum(QUESTION_TYPES);

/** Answer time limits, in seconds, that an interview question may carry. */
export const TIME_LIMIT_BOUNDS = { minimum: 10, maximum: 1800 } as const;

/** An interview question as the service stores and returns it: every field resolved. */
export const Question = Type.Object({
  question: Type.String(),
  type: QuestionType,
  time_limit_seconds: Type.Integer(TIME_LIMIT_BOUNDS),
});
export type Question = Static<typeof Question>;

/** What question and script generation need to know about a job: a title and description, the rest if known. */
export interface JobBrief {
  title: string;
  description: string;
  min_experience?: number | null;
  max_experience?: number | null;
  seniority_level?: SeniorityLevel | null;
  work_type?: WorkType | null;
  employment_type?: EmploymentType | null;
  location?: string | null;
  skills_required: string[];
  skills_good_to_have: string[];
}

/** A job as an interview project stores it: every field known. */
export interface JobDetails extends JobBrief {
  min_experience: number;
  max_experience: number;
  seniority_level: SeniorityLevel;
  work_type: WorkType;
  employment_type: EmploymentType;
  location: string;
}

/** Default answer time per question type when the caller gives none: writing takes longer than speaking. */
export const DEFAULT_TIME_LIMIT_SECONDS: Record<QuestionType, number> = { text: 300, video: 120, audio: 120 };
