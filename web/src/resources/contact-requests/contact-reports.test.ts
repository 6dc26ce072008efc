import { describe, expect, it } from 'vitest';
import { openReportsFirst, type ContactReport } from './contact-reports';

function report(id: string, status: 'open' | 'resolved'): ContactReport {
  return {
    id,
    contactRequestId: `request-${id}`,
    reporterId: 'contestant',
    reportedId: 'requester',
    reportedName: 'Sam',
    reportedEmail: 'sam@example.com',
    reason: 'Rude',
    messagePreview: 'Hello there',
    status,
    createdAt: '2026-11-26T10:00:00Z',
  };
}

describe('openReportsFirst', () => {
  it('puts open reports first and keeps the server’s order within each', () => {
    const sorted = openReportsFirst([report('a', 'resolved'), report('b', 'open'), report('c', 'resolved'), report('d', 'open')]);
    expect(sorted.map((item) => item.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('leaves the list it was given alone', () => {
    const reports = [report('a', 'resolved'), report('b', 'open')];
    openReportsFirst(reports);
    expect(reports.map((item) => item.id)).toEqual(['a', 'b']);
  });
});
