import { describe, expect, it } from 'vitest';
import { applicationSchema, EMPTY_APPLICATION, fieldOfMessage, type ApplicationInput } from './application-schema';

const good: ApplicationInput = {
  fullName: ' Ada Lovelace ',
  phone: '+14155552671',
  instagram: '@ada.l_1815',
  location: 'London',
  bio: '',
  interests: ['Fashion Modeling'],
  agreeTerms: true,
};

function firstError(input: ApplicationInput): string | undefined {
  const result = applicationSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('the opportunity application rules', () => {
  it('accepts a good form, trims it and drops blank optional fields', () => {
    const parsed = applicationSchema.parse({ ...good, phone: ' ', instagram: '' });
    expect(parsed.fullName).toBe('Ada Lovelace');
    expect(parsed.phone).toBeUndefined();
    expect(parsed.instagram).toBeUndefined();
    expect(parsed.bio).toBeUndefined();
  });

  it.each([
    [{ fullName: '  ' }, 'Full name is required'],
    [{ fullName: 'x'.repeat(101) }, 'Full name must be less than 100 characters'],
    [{ phone: '+0123' }, 'Phone must be in E.164 format (e.g., +14155552671)'],
    [{ phone: '+1234567890123456' }, 'Phone must be in E.164 format (e.g., +14155552671)'],
    [{ instagram: 'ada-l' }, 'Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)'],
    [{ instagram: 'a'.repeat(31) }, 'Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)'],
    [{ location: '' }, 'Location is required'],
    [{ location: 'x'.repeat(201) }, 'Location must be less than 200 characters'],
    [{ bio: 'x'.repeat(1001) }, 'Bio must be less than 1000 characters'],
    [{ agreeTerms: false }, 'You must agree to the terms'],
  ])('refuses %o with the spec message', (change, message) => {
    expect(firstError({ ...good, ...change })).toBe(message);
  });

  it('accepts every limit exactly', () => {
    expect(
      firstError({ ...good, fullName: 'é'.repeat(100), location: 'x'.repeat(200), bio: 'x'.repeat(1000), instagram: 'a'.repeat(30), phone: '+123456789012345' }),
    ).toBeUndefined();
  });

  it('reports the first broken rule in the form order', () => {
    expect(firstError(EMPTY_APPLICATION)).toBe('Full name is required');
  });

  it('maps server messages to their fields', () => {
    expect(fieldOfMessage('Phone must be in E.164 format (e.g., +14155552671)')).toBe('phone');
    expect(fieldOfMessage('You must agree to the terms')).toBe('agreeTerms');
    expect(fieldOfMessage('Something else')).toBeUndefined();
  });
});
