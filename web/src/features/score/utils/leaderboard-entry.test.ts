import { describe, expect, it } from 'vitest';
import { signInPath, validateLeaderboardEntry } from './leaderboard-entry';

describe('validateLeaderboardEntry', () => {
  it.each(['', '   ', '\t\n'])('requires a display name (%j)', (displayName) => {
    expect(validateLeaderboardEntry({ displayName, bio: 'hi' })).toEqual({
      ok: false,
      message: 'Please enter your display name',
    });
  });

  it('trims the name and the bio, and leaves out an empty bio', () => {
    expect(validateLeaderboardEntry({ displayName: '  Ada  ', bio: '  Hello  ' })).toEqual({
      ok: true,
      entry: { displayName: 'Ada', bio: 'Hello' },
    });
    expect(validateLeaderboardEntry({ displayName: 'Ada', bio: '   ' })).toEqual({
      ok: true,
      entry: { displayName: 'Ada' },
    });
  });
});

describe('signInPath', () => {
  it('carries the way back', () => {
    expect(signInPath('/results')).toBe('/auth?returnTo=%2Fresults');
  });
});
