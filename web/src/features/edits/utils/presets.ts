/**
 * The preset prompts of the three editing screens. The server's prompt
 * interpreter turns each prompt into operations; hair and outfit changes
 * need the generative provider (without one, the server answers 422 with
 * what the built-in editor can do). e2e/tests/edits.spec.ts sends every
 * prompt here to the real server, so this module imports nothing.
 */

/** Which success and failure messages apply to an edit. */
export type EditKind = 'edit' | 'enhance' | 'upscale';

export type EditPreset = {
  /** What the button says. */
  label: string;
  /** What is sent as the prompt. */
  prompt: string;
  /** Which success and failure messages apply. */
  kind: EditKind;
  /** Only the generative editor can do it. */
  generative?: boolean;
};

/** The results screen's Quick AI Enhancements. */
export const resultPresets: EditPreset[] = [
  { label: 'Improve Score to 10', prompt: 'Improve Score to 10', kind: 'enhance' },
  { label: 'Enhance', prompt: 'Enhance', kind: 'enhance' },
  { label: 'Upscale', prompt: 'Upscale', kind: 'upscale' },
  { label: 'Retouch Skin', prompt: 'Retouch skin', kind: 'edit' },
  { label: 'Blur Background', prompt: 'Blur the background', kind: 'edit' },
  { label: 'Black & White', prompt: 'Black and white', kind: 'edit' },
];

export type PresetTab = { value: 'background' | 'hair' | 'outfit'; label: string; presets: EditPreset[] };

/** The Photo Details dialog's tabs, 4 presets each (docs/spec-rules.md §2 and §9). */
export const dashboardTabs: PresetTab[] = [
  {
    value: 'background',
    label: 'Background',
    presets: [
      { label: 'Blur Background', prompt: 'Blur the background', kind: 'edit' },
      { label: 'Studio White', prompt: 'White background', kind: 'edit' },
      { label: 'Soft Gradient', prompt: 'Gradient background', kind: 'edit' },
      { label: 'Upscale to 4K', prompt: 'Upscale to 4K', kind: 'upscale' },
    ],
  },
  {
    value: 'hair',
    label: 'Hair',
    presets: [
      { label: 'Blonde Hair', prompt: 'Make my hair blonde', kind: 'edit', generative: true },
      { label: 'Curly Hair', prompt: 'Give me curly hair', kind: 'edit', generative: true },
      { label: 'Short Bob', prompt: 'Give me a short bob haircut', kind: 'edit', generative: true },
      { label: 'Glossy Dark Hair', prompt: 'Make my hair dark and glossy', kind: 'edit', generative: true },
    ],
  },
  {
    value: 'outfit',
    label: 'Outfit',
    presets: [
      { label: 'Black Suit', prompt: 'Put me in a black suit', kind: 'edit', generative: true },
      { label: 'White T-Shirt', prompt: 'Dress me in a white t-shirt', kind: 'edit', generative: true },
      { label: 'Evening Dress', prompt: 'Give me an elegant evening dress', kind: 'edit', generative: true },
      { label: 'Denim Jacket', prompt: 'Put me in a denim jacket', kind: 'edit', generative: true },
    ],
  },
];

export const GENERATIVE_ONLY_NOTE =
  'Hair and outfit changes need the generative AI editor, which is not switched on here. These built-in edits work now:';

/** What each disabled hair or outfit preset says under itself. */
export const GENERATIVE_ONLY_REASON = 'Needs generative AI';

/**
 * The built-in editor's own edits (background, styles, retouch), one tap away
 * in the Hair and Outfit tabs when those presets are disabled.
 */
export const builtInAlternatives: EditPreset[] = [
  { label: 'Retouch Skin', prompt: 'Retouch skin', kind: 'edit' },
  { label: 'Enhance', prompt: 'Enhance', kind: 'enhance' },
  { label: 'Studio White', prompt: 'White background', kind: 'edit' },
  { label: 'Blur Background', prompt: 'Blur the background', kind: 'edit' },
  { label: 'Warm Style', prompt: 'Warm style', kind: 'edit' },
  { label: 'Cinematic Style', prompt: 'Cinematic style', kind: 'edit' },
];

/** The /editor styles (the built-in engine's six). */
export const editorStyles = [
  { value: 'black-and-white', label: 'Black & White', prompt: 'Black and white' },
  { value: 'vintage', label: 'Vintage', prompt: 'Vintage style' },
  { value: 'warm', label: 'Warm', prompt: 'Warm style' },
  { value: 'cool', label: 'Cool', prompt: 'Cool style' },
  { value: 'cinematic', label: 'Cinematic', prompt: 'Cinematic style' },
  { value: 'vivid', label: 'Vivid', prompt: 'Vivid style' },
] as const;

/** The /editor backdrops. */
export const editorBackgrounds = [
  { value: 'blur', label: 'Blur', prompt: 'Blur the background' },
  { value: 'studio', label: 'Studio White', prompt: 'White background' },
  { value: 'gradient', label: 'Soft Gradient', prompt: 'Gradient background' },
] as const;

/** The /editor quick edits with a fixed prompt. */
export const editorQuickEdits: EditPreset[] = [
  { label: 'Enhance', prompt: 'Enhance', kind: 'enhance' },
  { label: 'Upscale 4K', prompt: 'Upscale to 4K', kind: 'upscale' },
  { label: 'Retouch', prompt: 'Retouch skin', kind: 'edit' },
];

/** The kind of a free-form prompt, for its messages. */
export function promptKind(prompt: string): EditKind {
  const text = prompt.toLowerCase();
  if (/\bupscale|\b4k\b|higher resolution/.test(text)) return 'upscale';
  if (/\benhance|improve score/.test(text)) return 'enhance';
  return 'edit';
}
