import { experienceInWords } from '../../../shared/ai/experience';

describe('experience in words', () => {
  it.each([
    [2, 5, '2 to 5 years'],
    [1, 1.5, '1 to 1.5 years'],
    [0, 1, 'up to 1 year'],
    [0, 3, 'up to 3 years'],
    [1, null, 'at least 1 year'],
    [4, undefined, 'at least 4 years'],
    [0, null, null],
    [null, 1, 'up to 1 year'],
    [undefined, 6, 'up to 6 years'],
    [null, null, null],
    [undefined, undefined, null],
  ])('min %p, max %p → %p', (min, max, words) => {
    expect(experienceInWords({ min_experience: min, max_experience: max })).toBe(words);
  });
});
