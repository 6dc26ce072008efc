import { describe, expect, it } from 'vitest';
import { petScoreSentence, petTitle } from './pet-title';
import { petCardFileName } from './pet-card';

describe('petTitle (docs/spec-rules.md §9)', () => {
  it.each([
    [10, 'Absolutely Adorable!'],
    [9, 'Absolutely Adorable!'],
    [8, 'Super Cute!'],
    [7, 'Very Sweet!'],
    [6, 'Quite Charming!'],
    [5, 'Uniquely Lovable!'],
    [1, 'Uniquely Lovable!'],
  ])('%s → %j', (score, title) => {
    expect(petTitle(score)).toBe(title);
  });

  it('says the score in the spec sentence', () => {
    expect(petScoreSentence(8)).toBe('Your pet scored 8/10 on our AI cuteness analysis.');
  });

  it('names the card after the score', () => {
    expect(petCardFileName(9)).toBe('prettyscore-pet-9.png');
  });
});
