import { describe, expect, it } from 'vitest';
import { cardSubScores, displayImage, outOfTen, photoFileBase } from './photo-display';

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

  it('name downloads with an edited or original suffix', () => {
    expect(photoFileBase({ id: '0123456789abcdef' }, true)).toBe('prettyscore-01234567-edited');
    expect(photoFileBase({ id: '0123456789abcdef' }, false)).toBe('prettyscore-01234567-original');
  });
});
