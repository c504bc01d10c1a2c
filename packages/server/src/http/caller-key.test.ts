import { describe, expect, it } from 'vitest';
import { addressBucket, callerKey } from './caller-key.js';

describe('callerKey', () => {
  it('counts a signed-in caller by user, an anonymous one by address', () => {
    expect(callerKey('alice', '10.0.0.1')).toBe('user:alice');
    expect(callerKey(undefined, '10.0.0.1')).toBe('address:10.0.0.1');
    expect(callerKey(undefined, undefined)).toBe('address:unknown');
  });

  it('counts IPv6 callers by /64, and IPv4-mapped addresses as IPv4', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(addressBucket('::ffff:7f00:2')).toBe('127.0.0.2');
    expect(addressBucket('127.0.0.1')).toBe('127.0.0.1');
  });
});
