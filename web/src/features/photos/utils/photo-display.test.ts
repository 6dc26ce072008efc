import { describe, expect, it } from 'vitest';
import { cardSubScores, displayImage, outOfTen, photoFileBase, shareExpiryChoices, shareLinkLifetime } from './photo-display';

describe('photo cards', () => {
  it('show the edited image when there is one', () => {
    expect(displayImage({ original_image_url: '/media/o', edited_image_url: '/media/e' })).toBe('/media/e');
    expect(displayImage({ original_image_url: '/media/o', edited_image_url: null })).toBe('/media/o');
  });

  it('give scores out of 10 and the three sub-scores', () => {
    expect(outOfTen(8)).toBe('8.0/10');
    expect(outOfTen(7.86)).toBe('7.9/10');
    expect(cardSubScores({ breakdown: { symmetry: 8.1, skinQuality: 7, facialHarmony: 9.2, overallBalance: 8 } }).map((s) => s.label)).toEqual([
      'Symmetry',
      'Skin Quality',
      'Facial Harmony',
    ]);
  });

  it('show feet and hands photos their own breakdown, labelled as on their results pages', () => {
    const feet = cardSubScores({
      photo_type: 'feet',
      breakdown: { toeSymmetry: 8.7, archQuality: 7.2, skinAppearance: 9, overallAesthetics: 8.1, symmetry: 0 },
    });
    expect(feet.map((s) => [s.label, s.value])).toEqual([
      ['Toe Symmetry', 8.7],
      ['Arch Quality', 7.2],
      ['Skin Appearance', 9],
      ['Overall Aesthetics', 8.1],
    ]);
    const hands = cardSubScores({
      photo_type: 'hands',
      breakdown: { fingerProportions: 6.5, skinQuality: 7.5, nailAppearance: 8, overallAesthetics: 7 },
    });
    expect(hands.map((s) => `${s.label} ${outOfTen(s.value)}`)).toEqual([
      'Finger Proportions 6.5/10',
      'Skin Quality 7.5/10',
      'Nail Appearance 8.0/10',
      'Overall Aesthetics 7.0/10',
    ]);
    expect(cardSubScores({ photo_type: 'face', breakdown: { symmetry: 8 } }).map((s) => s.label)).toEqual([
      'Symmetry',
      'Skin Quality',
      'Facial Harmony',
    ]);
  });

  it('name downloads with an edited or original suffix', () => {
    expect(photoFileBase({ id: '0123456789abcdef' }, true)).toBe('prettyscore-01234567-edited');
    expect(photoFileBase({ id: '0123456789abcdef' }, false)).toBe('prettyscore-01234567-original');
  });
});

describe('share links', () => {
  it('offer never, 24 hours and 7 days, in that order, as the API names them', () => {
    expect(shareExpiryChoices.map((choice) => choice.value)).toEqual(['never', '24h', '7d']);
  });

  it('say how long a link works', () => {
    expect(shareLinkLifetime(null)).toBe('The link works until you turn it off.');
    const text = shareLinkLifetime('2026-12-08T18:40:00Z');
    expect(text.startsWith('The link works until ')).toBe(true);
    expect(text).toMatch(/2026/);
  });
});
