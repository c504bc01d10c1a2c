// The URL guardrail's personal-data check (issue 24), measured on a corpus: URLs that carry an
// e-mail address, a phone number or a person's name, and ordinary URLs that carry none (ids,
// dates, versions, slugs, files, settings). The test prints the false negatives and false
// positives it finds, and holds both to the counts recorded here; a change that makes either worse
// fails. Before issue 24 only e-mail addresses were caught: `?name=Ann%20Smith&phone=...` passed.
import { describe, expect, it } from 'vitest';
import { type PersonalDataKind, personalDataIn } from './url-personal-data.js';

const EMAIL: PersonalDataKind = 'an email address';
const PHONE: PersonalDataKind = 'a phone number';
const NAME: PersonalDataKind = "a person's name";

/** URLs that carry personal data, with the kind each must be found to carry. */
const PERSONAL: readonly (readonly [string, PersonalDataKind])[] = [
  // e-mail addresses (what was caught before)
  ['https://example.com/invite?email=ann%40example.com', EMAIL],
  ['https://example.com/users/ann@example.com', EMAIL],
  ['https://example.com/cb#contact=bob.smith%2Bshop%40mail.example.org', EMAIL],
  ['https://example.com/share?to=someone@example.co.uk&x=1', EMAIL],
  // phone numbers, by parameter
  ['https://example.com/verify?phone=5551234567', PHONE],
  ['https://example.com/verify?phone_number=%2B15551234567', PHONE],
  ['https://example.com/signup?mobile=07700900123', PHONE],
  ['https://example.com/signup?tel=020%207946%200958', PHONE],
  ['https://example.com/a?billingPhone=555.123.4567', PHONE],
  ['https://example.com/a?contact_phone=(555)%20123-4567', PHONE],
  ['https://example.com/a?msisdn=447700900123', PHONE],
  ['https://example.com/a?whatsapp=%2B49%2030%20123456', PHONE],
  ['https://example.com/a?cell=555-123-4567', PHONE],
  ['https://example.com/a#fax=%2B33%201%2023%2045%2067%2089', PHONE],
  // phone numbers, by how they are written, in any parameter or the path
  ['https://example.com/call?to=%2B1%20555%20123%204567', PHONE],
  ['https://example.com/call/+15551234567', PHONE],
  ['https://example.com/contact/(555)%20123-4567', PHONE],
  ['https://example.com/c?q=555-123-4567', PHONE],
  ['https://example.com/c?callback=%2B44%2020%207946%200958', PHONE],
  ['https://example.com/c?who=%2B81-3-1234-5678', PHONE],
  ['tel:+15551234567', PHONE],
  // people's names, by parameter
  ['https://example.com/onboard?name=Ann%20Smith&phone=5551234567', NAME],
  ['https://example.com/onboard?name=Ann+Smith', NAME],
  ['https://example.com/onboard?first_name=Ann&last_name=Smith', NAME],
  ['https://example.com/onboard?firstName=Ann', NAME],
  ['https://example.com/onboard?lastname=Smith', NAME],
  ['https://example.com/onboard?surname=O%27Brien', NAME],
  ['https://example.com/onboard?full_name=Jos%C3%A9%20Garc%C3%ADa-L%C3%B3pez', NAME],
  ['https://example.com/onboard?given_name=Mei&family_name=Chen', NAME],
  ['https://example.com/onboard?customer_name=anna%20kowalska', NAME],
  ['https://example.com/onboard?patientName=John%20Q.%20Public', NAME],
  ['https://example.com/onboard?cardholder_name=MARIA%20ROSSI', NAME],
  ['https://example.com/onboard?recipientName=Li%20Wei', NAME],
  ['https://example.com/onboard?fname=Ann&lname=Smith', NAME],
  ['https://example.com/onboard?display_name=Ann%20S.', NAME],
  ['https://example.com/onboard#name=Ann%20Smith', NAME],
  [
    'https://example.com/onboard?name=%D0%90%D0%BD%D0%BD%D0%B0%20%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2%D0%B0',
    NAME,
  ],
  ['https://example.com/onboard?name=Mary-Jane%20O%27Neil', NAME],
  ['https://example.com/onboard?contact_name=Ahmed', NAME],
  // Known misses: a name written only in the path or as a lone word, or inside an encoded blob.
  ['https://example.com/people/ann-smith/profile', NAME],
  ['https://example.com/onboard?name=Ann', NAME],
  ['https://example.com/onboard?state=eyJuYW1lIjoiQW5uIFNtaXRoIn0', NAME],
  ['https://example.com/onboard?who=Ann%20Smith', NAME],
];

/** URLs that carry no personal data. */
const ORDINARY: readonly string[] = [
  'https://example.com/connect/abc123?step=2&lang=en',
  'https://example.com/orders/1234567890',
  'https://example.com/orders/ORD-2024-000123',
  'https://example.com/events?t=1700000000&since=2024-01-15',
  'https://example.com/report?date=2024-01-15&tz=Europe/Berlin',
  'https://example.com/download?name=report.pdf',
  'https://example.com/download?name=quarterly-report-2024.xlsx',
  'https://example.com/settings?name=notifications',
  'https://example.com/settings?name=Dark%20Mode',
  'https://example.com/repo?branch=main&name=parley',
  'https://example.com/s?file_name=Invoice%20March.pdf',
  'https://example.com/s?hostname=db-01.internal',
  'https://example.com/s?app_name=Brightgrid',
  'https://example.com/s?company_name=Acme%20Corp',
  'https://example.com/s?product_name=Blue%20Widget',
  'https://example.com/s?team_name=Platform%20Team',
  'https://example.com/s?event_name=Launch%20Day',
  'https://example.com/s?username=ann_s',
  'https://example.com/s?user=8812',
  'https://example.com/s?uid=550e8400-e29b-41d4-a716-446655440000',
  'https://example.com/flow/3f2a9c7e1b?v=1.2.3',
  'https://example.com/docs/getting-started',
  'https://example.com/blog/2024/01/15/new-york-office',
  'https://example.com/maps?q=New%20York&zoom=12',
  'https://example.com/search?q=pizza%20near%20me',
  'https://example.com/pay?amount=1234.56&currency=EUR',
  'https://example.com/tickets/INC-123-4567X',
  'https://example.com/s?isbn=978-3-16-148410-0',
  'https://example.com/s?version=2026.07.28',
  'https://example.com/s?ip=192.168.1.10',
  'https://example.com/s?sku=100-200-3000',
  'https://example.com/s?cell=A1&sheet=Summary',
  'https://example.com/s?phone_verified=true',
  'https://example.com/s?telemetry=on',
  'https://example.com/call/room/42',
  'https://example.com/s?count=5551234',
  'https://example.com/s?page=3&per_page=50',
  'https://example.com/s?color=%23ff0000',
  'https://example.com/s?name=',
  'https://example.com/s?display=compact',
  'https://example.com/s?model_name=gpt-lite&field_name=title',
  'https://example.com/s?title=Quarterly%20Report',
  'https://zoom.us/j/123456789?pwd=abc',
  'https://example.com/w/+/main',
  'https://example.com/s?range=100-200',
  'https://example.com/s?coords=52.5200,13.4050',
  'https://example.com/s?ts=2024-01-15T10:20:30Z',
  'https://example.com/s?tag=v1.0.0-rc.1',
];

/**
 * What the corpus measured when this detector was written: a change must not make either worse.
 * The known false positive is `?name=Dark%20Mode`: a bare `name` holding two capitalized words is
 * taken for a person's name (`?name=Ann%20Smith` is the common case); an author renames such a
 * parameter. The known misses are the last four personal URLs.
 */
const ALLOWED_FALSE_NEGATIVES = 4;
const ALLOWED_FALSE_POSITIVES = 1;

describe('personal data in URLs, on a corpus', () => {
  const misses = PERSONAL.filter(([url, kind]) => !personalDataIn(new URL(url)).includes(kind));
  const falseAlarms = ORDINARY.filter((url) => personalDataIn(new URL(url)).length > 0);

  it(`misses at most ${ALLOWED_FALSE_NEGATIVES} of ${PERSONAL.length} URLs with personal data, and flags at most ${ALLOWED_FALSE_POSITIVES} of ${ORDINARY.length} without`, () => {
    console.info(
      `URL personal data: ${misses.length} false negatives of ${PERSONAL.length}, ${falseAlarms.length} false positives of ${ORDINARY.length}` +
        (misses.length > 0 ? `\n  missed: ${misses.map(([url]) => url).join('\n          ')}` : '') +
        (falseAlarms.length > 0 ? `\n  flagged: ${falseAlarms.join('\n           ')}` : ''),
    );
    expect(PERSONAL.length).toBeGreaterThanOrEqual(40);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(40);
    expect(misses.length).toBeLessThanOrEqual(ALLOWED_FALSE_NEGATIVES);
    expect(falseAlarms).toHaveLength(ALLOWED_FALSE_POSITIVES);
  });

  it('catches the case issue 24 names: ?name=…&phone=…', () => {
    expect(
      personalDataIn(new URL('https://example.com/welcome?name=Ann%20Smith&phone=%2B15551234567')),
    ).toEqual([NAME, PHONE]);
  });
});
