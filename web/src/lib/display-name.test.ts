import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX, displayNameField, displayNameOf, optionalDisplayNameField } from './display-name';

describe('display names', () => {
  it('are trimmed and 1-50 characters, as the server checks them', () => {
    expect(displayNameField.parse('  Ada  ')).toBe('Ada');
    expect(displayNameField.safeParse('é'.repeat(DISPLAY_NAME_MAX)).success).toBe(true);
    expect(displayNameField.safeParse('a'.repeat(DISPLAY_NAME_MAX + 1)).error?.issues[0]?.message).toBe(
      'Display name must be at most 50 characters',
    );
    expect(displayNameField.safeParse('   ').error?.issues[0]?.message).toBe('Please enter a display name');
    expect(displayNameField.safeParse('\u200B\u200B').error?.issues[0]?.message).toBe('Display name needs at least one visible character');
    expect(displayNameField.safeParse('Ada\u202E').success).toBe(false);
  });

  it('may be left blank at sign-up', () => {
    expect(optionalDisplayNameField.parse('  ')).toBe('');
    expect(optionalDisplayNameField.safeParse('\u3164').success).toBe(false);
  });

  it('are read from the user metadata, blank meaning none', () => {
    expect(displayNameOf({ user_metadata: { display_name: ' Ada ' } })).toBe('Ada');
    expect(displayNameOf({ user_metadata: { display_name: '\u200B' } })).toBeNull();
    expect(displayNameOf({ user_metadata: {} })).toBeNull();
    expect(displayNameOf(null)).toBeNull();
  });
});
