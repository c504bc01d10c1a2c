import { describe, expect, it } from 'vitest';
import { readServiceCredentials } from './service-credentials.js';

describe('readServiceCredentials', () => {
  it('is nothing without service flags or variables: a person signs in in the browser', () => {
    expect(readServiceCredentials({}, {})).toBeUndefined();
  });

  it('reads a client with a secret or a key, flags over the environment', () => {
    expect(
      readServiceCredentials(
        {},
        { PARLEY_CLIENT_ID: 'bot', PARLEY_CLIENT_SECRET: 's3cret', PARLEY_ISSUER: 'https://as' },
      ),
    ).toEqual({ kind: 'client', clientId: 'bot', clientSecret: 's3cret', issuer: 'https://as' });
    expect(
      readServiceCredentials({ 'client-id': 'other', 'client-key': 'key.pem' }, { PARLEY_CLIENT_ID: 'bot' }),
    ).toEqual({ kind: 'client', clientId: 'other', keyFile: 'key.pem' });
  });

  it('reads a workload token file', () => {
    expect(
      readServiceCredentials(
        {},
        { PARLEY_WORKLOAD_TOKEN_FILE: '/var/run/token', PARLEY_ISSUER: 'https://as' },
      ),
    ).toEqual({ kind: 'workload', tokenFile: '/var/run/token', issuer: 'https://as' });
  });

  it('refuses a secret or a workload token with no --issuer: the MCP server would choose where it goes', () => {
    expect(() =>
      readServiceCredentials({ 'client-id': 'bot', 'client-secret': 'hunter2-secret' }, {}),
    ).toThrow(
      /--client-id sends the client's secret to the authorization server the MCP server names; pin .* --issuer <url>/,
    );
    expect(() => readServiceCredentials({ 'workload-token': '/var/run/token' }, {})).toThrow(
      /--workload-token sends the workload's JWT .* --issuer <url> \(or PARLEY_ISSUER\)/,
    );
  });

  it.each([
    [{ 'client-id': 'bot' }, {}, /--client-id needs the client's secret/],
    [{ 'client-secret': 's3cret' }, {}, /need --client-id/],
    [{ 'client-id': 'bot', 'client-secret': 's', 'client-key': 'k' }, {}, /not both/],
    [{ 'workload-token': 't', 'client-key': 'k', issuer: 'https://as' }, {}, /workload JWT alone/],
    [{ issuer: 'https://as' }, {}, /--issuer goes with/],
    [{ 'client-id': 'bot', 'client-secret': 's', issuer: 'not a url' }, {}, /issuer URL/],
    [{}, { PARLEY_CLIENT_ID: 'bot', PARLEY_CLIENT_SECRET: ' ' }, /PARLEY_CLIENT_SECRET\) is empty/],
  ])('refuses %o %o, naming what is missing', (flags, env, message) => {
    expect(() => readServiceCredentials(flags, env)).toThrow(message);
  });

  it('never puts the secret in a refusal', () => {
    expect(() => readServiceCredentials({ 'client-secret': 'hunter2-secret' }, {})).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
