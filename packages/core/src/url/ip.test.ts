import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './ip.js';

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'app.localhost',
    '127.0.0.1',
    '127.255.255.254',
    '127.1', // the shortened form the URL parser accepts
    '2130706433', // 127.0.0.1 as one decimal number
    '::1',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
  ])('%s is this computer', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '',
    'example.com',
    'localhost.example.com',
    'mylocalhost',
    '128.0.0.1',
    '10.0.0.1',
    '0.0.0.0',
    '[::ffff:127.0.0.1]', // IPv4-mapped: not loopback under the Secure Contexts rules
    '[::2]',
    'local host',
    '[::1',
  ])('%j is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('answers false for non-string input instead of throwing', () => {
    expect(isLoopbackHost(undefined as unknown as string)).toBe(false);
    expect(isLoopbackHost(127 as unknown as string)).toBe(false);
  });
});
