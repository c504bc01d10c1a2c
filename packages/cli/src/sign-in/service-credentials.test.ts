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
    expect(readServiceCredentials({}, { PARLEY_WORKLOAD_TOKEN_FILE: '/var/run/token' })).toEqual({
      kind: 'workload',
      tokenFile: '/var/run/token',
    });
  });

  it.each([
    [{ 'client-id': 'bot' }, {}, /--client-id needs the client's secret/],
    [{ 'client-secret': 's3cret' }, {}, /need --client-id/],
    [{ 'client-id': 'bot', 'client-secret': 's', 'client-key': 'k' }, {}, /not both/],
    [{ 'workload-token': 't', 'client-key': 'k' }, {}, /workload JWT alone/],
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
