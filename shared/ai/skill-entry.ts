/** One skill of the vocabulary (skills-vocabulary.ts says how each kind matches). */
export interface SkillEntry {
  name: string;
  aliases?: string[];
  exact?: boolean;
  contextual?: boolean;
}

/** A skill matched case-insensitively, anywhere. */
export const tech = (name: string, ...aliases: string[]): SkillEntry => ({ name, aliases });
/** A skill matched case-sensitively: a short acronym, or a name that is also a common word. */
export const exact = (name: string, ...aliases: string[]): SkillEntry => ({ name, aliases, exact: true });
/** A skill that counts only where the text asks for it. */
export const contextual = (name: string, ...aliases: string[]): SkillEntry => ({ name, aliases, contextual: true });
