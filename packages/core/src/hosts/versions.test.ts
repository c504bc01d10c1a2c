import { describe, expect, it } from 'vitest';
import { checkVersionRange, versionInRange } from './versions.js';

describe('versionInRange', () => {
  it('reads the versions hosts really send', () => {
    expect(versionInRange('1.130.0', '>=1.107')).toBe(true);
    expect(versionInRange('1.106.9', '>=1.107')).toBe(false);
    expect(versionInRange('2.1.259', '>=2.1.108 <3')).toBe(true);
    expect(versionInRange('1.4', '>=1.2 <2')).toBe(true);
    expect(versionInRange('v2.0.0', '>=2')).toBe(true);
  });

  it('puts a pre-release before its release', () => {
    expect(versionInRange('0.148.0-alpha.15', '<0.148.0')).toBe(true);
    expect(versionInRange('0.148.0-alpha.15', '>=0.148.0')).toBe(false);
    expect(versionInRange('0.148.0-alpha.15', '>=0.147')).toBe(true);
  });

  it('takes alternatives and exact versions', () => {
    expect(versionInRange('3.0.0', '<2 || =3.0.0')).toBe(true);
    expect(versionInRange('2.5.0', '<2 || 3.0.0')).toBe(false);
  });

  it('gives every version, even one that is not a number, to "*" and only to it', () => {
    expect(versionInRange('dev', '*')).toBe(true);
    expect(versionInRange(undefined, undefined)).toBe(true);
    expect(versionInRange('dev', '>=1')).toBe(false);
    expect(versionInRange(undefined, '<1')).toBe(false);
  });

  it('refuses a range it cannot read, with the fix', () => {
    expect(() => checkVersionRange('~1.2')).toThrow(/write comparators like ">=1.0.25 <2"/);
    expect(() => versionInRange('1.0.0', '>=one')).toThrow(RangeError);
    expect(() => checkVersionRange('>=1.0.25 <2 || 3')).not.toThrow();
  });
});
