import { describe, expect, it } from 'vitest';
import { conversionKindLabel, ratePercent, statusAction, statusBadge, tierName, TIERS } from './rules';

describe('tiers', () => {
  it('are starter 15%, pro 20% and elite 30%', () => {
    expect(TIERS.map(({ tier, rate }) => `${tier} ${ratePercent(rate)}`)).toEqual(['starter 15%', 'pro 20%', 'elite 30%']);
  });

  it('have names', () => {
    expect(tierName('starter')).toBe('Starter');
    expect(tierName('pro')).toBe('Pro');
    expect(tierName('elite')).toBe('Elite');
    expect(tierName('legend')).toBe('Legend');
  });

  it('says a rate as a percent without float noise', () => {
    expect(ratePercent(0.15)).toBe('15%');
    expect(ratePercent(0.3)).toBe('30%');
    expect(ratePercent(0.125)).toBe('12.5%');
  });
});

describe('statusBadge', () => {
  it('is green for approved, yellow for pending and red otherwise', () => {
    expect(statusBadge('approved')).toEqual({ label: 'APPROVED', tone: 'green' });
    expect(statusBadge('pending')).toEqual({ label: 'PENDING', tone: 'yellow' });
    expect(statusBadge('suspended')).toEqual({ label: 'SUSPENDED', tone: 'red' });
  });
});

describe('statusAction', () => {
  it('approves a pending partner, suspends an approved one and reactivates a suspended one', () => {
    expect(statusAction('pending')).toEqual({ label: 'Approve', next: 'approved' });
    expect(statusAction('approved')).toEqual({ label: 'Suspend', next: 'suspended' });
    expect(statusAction('suspended')).toEqual({ label: 'Reactivate', next: 'approved' });
    expect(statusAction('rejected')).toBeNull();
  });
});

describe('conversionKindLabel', () => {
  it('names each kind of line', () => {
    expect(conversionKindLabel('sale')).toBe('Sale');
    expect(conversionKindLabel('parent')).toBe('Sub-affiliate');
    expect(conversionKindLabel('clawback')).toBe('Refund');
  });
});
