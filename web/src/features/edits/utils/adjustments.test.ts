import { describe, expect, it } from 'vitest';
import { adjustmentsFilter, clampSlider, DEFAULT_ADJUSTMENTS, formatSlider, isDefaultAdjustments, sliders } from './adjustments';

const blur = sliders.find((slider) => slider.key === 'blurPx')!;
const brightness = sliders.find((slider) => slider.key === 'brightness')!;

describe('the editor sliders', () => {
  it('are brightness, contrast, saturation 0-200 % and blur 0-10 px in 0.1 steps', () => {
    expect(sliders.map(({ key, min, max, step }) => [key, min, max, step])).toEqual([
      ['brightness', 0, 200, 1],
      ['contrast', 0, 200, 1],
      ['saturation', 0, 200, 1],
      ['blurPx', 0, 10, 0.1],
    ]);
    expect(DEFAULT_ADJUSTMENTS).toEqual({ brightness: 100, contrast: 100, saturation: 100, blurPx: 0 });
  });

  it('preview as a CSS filter, and not at all at the defaults', () => {
    expect(adjustmentsFilter(DEFAULT_ADJUSTMENTS)).toBeUndefined();
    expect(adjustmentsFilter({ brightness: 120, contrast: 90, saturation: 0, blurPx: 2.5 })).toBe(
      'brightness(120%) contrast(90%) saturate(0%) blur(2.5px)',
    );
    expect(isDefaultAdjustments({ ...DEFAULT_ADJUSTMENTS, blurPx: 0.1 })).toBe(false);
  });

  it('preview the blur at the size the photo is shown, as the server will bake it at full size', () => {
    // A 4000 px photo shown 500 px wide: 8 photo pixels of blur are 1 screen pixel.
    expect(adjustmentsFilter({ ...DEFAULT_ADJUSTMENTS, blurPx: 8 }, 500 / 4000)).toBe(
      'brightness(100%) contrast(100%) saturate(100%) blur(1px)',
    );
  });

  it('clamp to the range and the step, and read well', () => {
    expect(clampSlider(blur, 3.14159)).toBe(3.1);
    expect(clampSlider(blur, 12)).toBe(10);
    expect(clampSlider(brightness, -4)).toBe(0);
    expect(formatSlider(blur, 2.5)).toBe('2.5 px');
    expect(formatSlider(brightness, 120)).toBe('120%');
  });
});
