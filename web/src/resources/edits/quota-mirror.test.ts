import { afterEach, describe, expect, it } from 'vitest';
import { EDITS_REMAINING_KEY, mirrorEditsRemaining, outOfEdits, readMirroredEditsRemaining } from './quota-mirror';

afterEach(() => localStorage.clear());

describe('the prettyScoreEditsRemaining mirror', () => {
  it('uses the spec’s key and writes the server’s count', () => {
    expect(EDITS_REMAINING_KEY).toBe('prettyScoreEditsRemaining');
    mirrorEditsRemaining(3);
    expect(localStorage.getItem('prettyScoreEditsRemaining')).toBe('3');
    expect(readMirroredEditsRemaining()).toBe(3);
  });

  it('never stores a negative count, and removes it when edits are unlimited', () => {
    mirrorEditsRemaining(-2);
    expect(readMirroredEditsRemaining()).toBe(0);
    mirrorEditsRemaining(null);
    expect(localStorage.getItem(EDITS_REMAINING_KEY)).toBeNull();
    expect(readMirroredEditsRemaining()).toBeUndefined();
  });

  it('ignores what is not a count', () => {
    localStorage.setItem(EDITS_REMAINING_KEY, 'lots');
    expect(readMirroredEditsRemaining()).toBeUndefined();
  });

  it('is out of edits at 0 or fewer, never when unlimited or unknown', () => {
    expect(outOfEdits(0)).toBe(true);
    expect(outOfEdits(-1)).toBe(true);
    expect(outOfEdits(1)).toBe(false);
    expect(outOfEdits(null)).toBe(false);
    expect(outOfEdits(undefined)).toBe(false);
  });
});
