import { futureDate, type Random } from '../random.js';
import type { UserName } from '../users.js';
import { mismatch } from './rounds-flow.js';

/**
 * What a return and a flight flow answer, and how each finds and checks its own booking: one copy
 * for the 2026-07-28 flows and the 2025-era ones, so both eras are judged by the same rules.
 */
type Booking = Record<string, unknown>;

const REASONS = ['Broken', 'Wrong item', 'No longer needed'] as const;

/** Brightgrid's catalogue: destination code, city, fare. */
const DESTINATIONS = [
  { code: 'LIS', city: 'Lisbon', fareEur: 129 },
  { code: 'OSL', city: 'Oslo', fareEur: 164 },
  { code: 'YUL', city: 'Montréal', fareEur: 512 },
  { code: 'KIX', city: 'Osaka', fareEur: 780 },
] as const;

export type Destination = (typeof DESTINATIONS)[number];

/** The `book_return` form's answer, with an email unique to the flow so its booking is findable. */
// A type, not an interface: it is sent as form content, which wants an index signature.
export type ReturnAnswer = {
  readonly reason: (typeof REASONS)[number];
  readonly email: string;
  readonly boxes: number;
  readonly pickup_date: string;
  readonly gift_wrap: boolean;
};

export function randomReturnAnswer(emailPrefix: string, random: Random): ReturnAnswer {
  return {
    reason: random.pick(REASONS),
    email: `${emailPrefix}-${random.word(8)}@fleet.example`,
    boxes: random.int(1, 3),
    pickup_date: futureDate(random.int(0, 3000)),
    gift_wrap: random.next() < 0.5,
  };
}

export const returnBookings = {
  of: (bookings: Booking): Booking[] => (bookings.returns ?? []) as Booking[],
  isMine: (booked: Booking, answer: ReturnAnswer): boolean => booked.email === answer.email,
  /** What differs between the booking and the flow's answer, or `undefined`. */
  problem: (booked: Booking, user: UserName, answer: ReturnAnswer): string | undefined =>
    mismatch(booked, {
      user,
      email: answer.email,
      reason: answer.reason,
      boxes: answer.boxes,
      pickupDate: answer.pickup_date,
      giftWrap: answer.gift_wrap,
    }),
};

export function randomDestination(random: Random): Destination {
  return random.pick(DESTINATIONS);
}

export const flightBookings = {
  of: (bookings: Booking): Booking[] => (bookings.flights ?? []) as Booking[],
  /** Each flow flies on its own day, so the date finds its flight. */
  isMine: (flight: Booking, date: string): boolean => flight.date === date,
  problem: (flight: Booking, user: UserName, destination: Destination, date: string): string | undefined =>
    mismatch(flight, { user, destination: destination.code, city: destination.city, date }),
};
