import { describe, expect, it } from 'vitest';
import { badgeLabel, unreadCount } from './contact-requests';

describe('the unread badge', () => {
  it('adds requests to answer and unread messages', () => {
    expect(unreadCount(undefined)).toBe(0);
    expect(unreadCount({ awaitingAnswer: 2, unreadMessages: 3 })).toBe(5);
  });

  it('shows nothing at zero and 9+ past nine', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(9)).toBe('9');
    expect(badgeLabel(10)).toBe('9+');
  });
});
