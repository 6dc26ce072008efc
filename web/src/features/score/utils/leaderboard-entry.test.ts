import { describe, expect, it } from 'vitest';
import { validateLeaderboardEntry } from './leaderboard-entry';

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

describe('the server’s length limits', () => {
  it('allows 50 characters of display name, counting emoji as one', () => {
    expect(validateLeaderboardEntry({ displayName: 'a'.repeat(50), bio: '' }).ok).toBe(true);
    expect(validateLeaderboardEntry({ displayName: '😀'.repeat(50), bio: '' }).ok).toBe(true);
    expect(validateLeaderboardEntry({ displayName: 'a'.repeat(51), bio: '' })).toEqual({
      ok: false,
      message: 'Display name must be at most 50 characters',
    });
  });

  it('allows a bio of 1000 characters, not more', () => {
    expect(validateLeaderboardEntry({ displayName: 'Ada', bio: 'b'.repeat(1000) }).ok).toBe(true);
    expect(validateLeaderboardEntry({ displayName: 'Ada', bio: 'b'.repeat(1001) })).toEqual({
      ok: false,
      message: 'Bio must be less than 1000 characters',
    });
  });
});
