import { describe, expect, it } from 'vitest';
import { writtenHostOf } from './written-host.js';

describe('writtenHostOf', () => {
  it.each([
    ['https://0x7f.1/path', '0x7f.1'],
    ['http://2130706433:8080/', '2130706433'],
    ['https://user:pass@10.1/x', '10.1'],
    ['https://a@b@0300.0250.0.1?q', '0300.0250.0.1'],
    ['  https://127.1#frag  ', '127.1'],
    ['https:\\\\127.1\\path', '127.1'],
    ['https://12\t7.0.0.1/', '127.0.0.1'],
    ['https://[::1]:3000/', '[::1]'],
    ['https:127.1', '127.1'],
    ['https://[::1', '[::1'],
    ['', ''],
  ])('%j is written with host %j', (url, host) => {
    expect(writtenHostOf(url)).toBe(host);
  });
});
