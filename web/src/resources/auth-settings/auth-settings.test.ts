import { describe, expect, it } from 'vitest';
import { json, stubApi } from '@/testing/fake-api';
import { getAuthSettings, providerLabel, socialProviders } from './auth-settings';

describe('socialProviders', () => {
  it('lists the enabled social providers with the server’s labels, in its order', () => {
    const settings = {
      external: { email: true, phone: true, anonymous_users: true, saml: true, web3: true, google: true, apple: false, github: true, test: true },
      external_labels: { google: 'Google', github: 'GitHub', test: 'Test ID' },
    };
    expect(socialProviders(settings)).toEqual([
      { name: 'google', label: 'Google' },
      { name: 'github', label: 'GitHub' },
      { name: 'test', label: 'Test ID' },
    ]);
  });

  it('is empty without settings or without a social provider', () => {
    expect(socialProviders(undefined)).toEqual([]);
    expect(socialProviders({ external: { email: true, google: false } })).toEqual([]);
  });

  it('names a provider the server left without a label', () => {
    expect(providerLabel('github', { external: { github: true } })).toBe('GitHub');
    expect(providerLabel('keycloak')).toBe('Keycloak');
    expect(providerLabel('test', { external: { test: true }, external_labels: { test: '  ' } })).toBe('Test');
  });
});

describe('getAuthSettings', () => {
  it('reads GET /auth/v1/settings', async () => {
    const fetchMock = stubApi({ 'GET /auth/v1/settings': () => json({ external: { email: true, google: true } }) });
    await expect(getAuthSettings()).resolves.toEqual({ external: { email: true, google: true } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('fails on an error status or an answer without "external"', async () => {
    stubApi({ 'GET /auth/v1/settings': () => json({ message: 'down' }, 503) });
    await expect(getAuthSettings()).rejects.toThrow(/503/);
    stubApi({ 'GET /auth/v1/settings': () => json({ disable_signup: false }) });
    await expect(getAuthSettings()).rejects.toThrow(/external/);
  });
});
