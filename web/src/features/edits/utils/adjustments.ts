import type { Adjustments } from '@/resources/edits/types';

/**
 * The /editor's manual sliders (docs/spec-rules.md): brightness, contrast and
 * saturation 0-200 % (default 100) and blur 0-10 px in 0.1 steps. The
 * browser previews them with a CSS filter; the server applies them for real.
 */
export const DEFAULT_ADJUSTMENTS: Adjustments = { brightness: 100, contrast: 100, saturation: 100, blurPx: 0 };

export type SliderSpec = { key: keyof Adjustments; label: string; min: number; max: number; step: number; unit: '%' | 'px' };

export const sliders: SliderSpec[] = [
  { key: 'brightness', label: 'Brightness', min: 0, max: 200, step: 1, unit: '%' },
  { key: 'contrast', label: 'Contrast', min: 0, max: 200, step: 1, unit: '%' },
  { key: 'saturation', label: 'Saturation', min: 0, max: 200, step: 1, unit: '%' },
  { key: 'blurPx', label: 'Blur', min: 0, max: 10, step: 0.1, unit: 'px' },
];

export function isDefaultAdjustments(adjustments: Adjustments): boolean {
  return (Object.keys(DEFAULT_ADJUSTMENTS) as (keyof Adjustments)[]).every(
    (key) => adjustments[key] === DEFAULT_ADJUSTMENTS[key],
  );
}

/**
 * The live preview: the same four adjustments as a CSS filter. The blur is in
 * pixels of the photo itself (that is what the server bakes), so on screen it
 * is scaled by `displayScale`, the shown width over the photo's own width.
 */
export function adjustmentsFilter(adjustments: Adjustments, displayScale = 1): string | undefined {
  if (isDefaultAdjustments(adjustments)) return undefined;
  const { brightness, contrast, saturation, blurPx } = adjustments;
  const shownBlur = Number((blurPx * displayScale).toFixed(2));
  return `brightness(${brightness}%) contrast(${contrast}%) saturate(${saturation}%) blur(${shownBlur}px)`;
}

/** A slider's value as shown and announced ('120%', '2.5 px'). */
export function formatSlider(spec: SliderSpec, value: number): string {
  return spec.unit === '%' ? `${Math.round(value)}%` : `${value.toFixed(1)} px`;
}

/** Keeps a value in its slider's range and on its step (blur to one decimal). */
export function clampSlider(spec: SliderSpec, value: number): number {
  const clamped = Math.min(spec.max, Math.max(spec.min, value));
  return Number((Math.round(clamped / spec.step) * spec.step).toFixed(spec.step < 1 ? 1 : 0));
}
