import { SOFTWARE_SKILLS } from './skills-software';
import { TRADE_SKILLS } from './skills-trades';
import type { SkillEntry } from './skill-entry';

export type { SkillEntry } from './skill-entry';

/**
 * The curated skills vocabulary of the offline job-description parser: each skill's canonical name and the
 * ways job ads write it. Matching is case-insensitive except for entries marked `exact` (short acronyms and
 * names that are also common words: Go, Swift, Excel, Epic…). `contextual` skills (soft skills, languages,
 * broad business skills) only count where the text asks for them, in a requirements or nice-to-have part,
 * because elsewhere the same words usually describe the company or the duties rather than the candidate.
 */

/** Every skill the parser knows: software's (skills-software.ts), then every other trade's (skills-trades.ts). */
export const SKILLS: SkillEntry[] = [...SOFTWARE_SKILLS, ...TRADE_SKILLS];
