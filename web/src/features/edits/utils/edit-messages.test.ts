import { describe, expect, it } from 'vitest';
import { editShareText, editSuccessMessage } from './edit-messages';
import { dashboardTabs, promptKind, resultPresets } from './presets';

describe('edit success messages', () => {
  it('names the edit and the free edits left, as the spec words them', () => {
    expect(editSuccessMessage('edit', 4)).toBe('Photo edited! 4 free edits remaining.');
    expect(editSuccessMessage('enhance', 3)).toBe('Photo enhanced! 3 free edits remaining.');
    expect(editSuccessMessage('upscale', 0)).toBe('Photo upscaled! 0 free edits remaining.');
  });

  it('says edit for one, and unlimited for premium', () => {
    expect(editSuccessMessage('edit', 1)).toBe('Photo edited! 1 free edit remaining.');
    expect(editSuccessMessage('upscale', null)).toBe('Photo upscaled! You have unlimited edits.');
    expect(editSuccessMessage('edit', -1)).toBe('Photo edited! 0 free edits remaining.');
  });

  it('maps each results preset to its message', () => {
    const kinds = Object.fromEntries(resultPresets.map((preset) => [preset.label, preset.kind]));
    expect(kinds['Improve Score to 10']).toBe('enhance');
    expect(kinds['Enhance']).toBe('enhance');
    expect(kinds['Upscale']).toBe('upscale');
    expect(kinds['Retouch Skin']).toBe('edit');
  });

  it('reads the kind of a typed prompt', () => {
    expect(promptKind('please upscale this')).toBe('upscale');
    expect(promptKind('Upscale to 4K')).toBe('upscale');
    expect(promptKind('enhance the colours')).toBe('enhance');
    expect(promptKind('make it brighter')).toBe('edit');
  });

  it('has three dashboard tabs of 4 presets, with Upscale to 4K among them', () => {
    expect(dashboardTabs.map((tab) => tab.label)).toEqual(['Background', 'Hair', 'Outfit']);
    for (const tab of dashboardTabs) expect(tab.presets).toHaveLength(4);
    expect(dashboardTabs.flatMap((tab) => tab.presets.map((preset) => preset.label))).toContain('Upscale to 4K');
  });

  it('shares an edit with the challenge tag', () => {
    expect(editShareText('https://p.example')).toMatch(/^I just enhanced my photo with AI! .*https:\/\/p\.example #AIPhotoChallenge$/);
  });
});
