import { afterEach, describe, expect, it } from 'vitest';
import {
  dateTimeToLocalInput,
  localInputToDateTime,
  offsetOf,
  timeZoneLabel,
  toLocalInput,
} from './date-time.js';

// Node reads TZ again whenever it changes, so each test can stand in a real time zone.
const original = process.env.TZ;
afterEach(() => {
  process.env.TZ = original;
});

function inZone(zone: string): void {
  process.env.TZ = zone;
}

describe('localInputToDateTime', () => {
  it('adds the local offset (summer time included) and seconds', () => {
    inZone('Europe/Paris');
    expect(localInputToDateTime('2026-07-28T14:30')).toBe('2026-07-28T14:30:00+02:00');
    expect(localInputToDateTime('2026-01-15T09:00')).toBe('2026-01-15T09:00:00+01:00');
  });

  it('writes negative and half-hour offsets', () => {
    inZone('America/St_Johns');
    expect(localInputToDateTime('2026-07-28T14:30:05')).toBe('2026-07-28T14:30:05-02:30');
    inZone('Asia/Kolkata');
    expect(localInputToDateTime('2026-07-28T14:30')).toBe('2026-07-28T14:30:00+05:30');
    inZone('UTC');
    expect(localInputToDateTime('2026-07-28T14:30')).toBe('2026-07-28T14:30:00+00:00');
  });

  it('names the same instant as the wall clock the person saw', () => {
    inZone('America/Los_Angeles');
    const text = localInputToDateTime('2026-03-01T23:59:59.678')!;
    expect(text).toBe('2026-03-01T23:59:59-08:00');
    expect(new Date(text).toISOString()).toBe('2026-03-02T07:59:59.000Z');
  });

  it('keeps years below 100 as written', () => {
    inZone('UTC');
    expect(localInputToDateTime('0042-03-04T05:06')).toBe('0042-03-04T05:06:00+00:00');
  });

  it('refuses anything that is not a full datetime-local value', () => {
    for (const bad of ['', '2026-07-28', '2026-07-28 14:30', '14:30', '2026-07-28T14', 'soon']) {
      expect(localInputToDateTime(bad)).toBeUndefined();
    }
  });
});

describe('dateTimeToLocalInput', () => {
  it('shows an RFC 3339 time on the local wall clock', () => {
    inZone('Europe/Paris');
    expect(dateTimeToLocalInput('2026-07-28T12:00:00Z')).toBe('2026-07-28T14:00:00');
    inZone('America/St_Johns');
    expect(dateTimeToLocalInput('2026-07-28T12:00:00+02:00')).toBe('2026-07-28T07:30:00');
  });

  it('round-trips with localInputToDateTime', () => {
    inZone('Asia/Kolkata');
    const shown = dateTimeToLocalInput('2026-07-28T12:00:00Z');
    expect(new Date(localInputToDateTime(shown)!).toISOString()).toBe('2026-07-28T12:00:00.000Z');
  });

  it('gives an empty value for text it cannot read', () => {
    expect(dateTimeToLocalInput('next tuesday')).toBe('');
  });
});

describe('offsetOf, timeZoneLabel, toLocalInput', () => {
  it('format the offset and the wall clock', () => {
    inZone('America/St_Johns');
    const date = new Date(2026, 0, 1, 8, 5, 3);
    expect(offsetOf(date)).toBe('-03:30');
    expect(timeZoneLabel(date)).toBe('America/St_Johns');
    expect(toLocalInput(date)).toBe('2026-01-01T08:05:03');
  });
});
