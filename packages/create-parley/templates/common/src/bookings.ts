/** One booked table. A type, not an interface, so `ctx.once` can journal it as JSON. */
export type Booking = { readonly id: string; readonly guests: number; readonly date: string };

/**
 * A stand-in for your own booking system: replace it with yours. It books once per key, as a
 * unique column or a payment API's idempotency key would, so a round that a client sends twice
 * books one table.
 */
export class Bookings {
  readonly #byKey = new Map<string, Booking>();

  book(key: string, party: { guests: number; date: string }): Booking {
    const booked = this.#byKey.get(key);
    if (booked) return booked;
    const booking: Booking = { id: `T-${this.#byKey.size + 1}`, guests: party.guests, date: party.date };
    this.#byKey.set(key, booking);
    return booking;
  }

  list(): Booking[] {
    return [...this.#byKey.values()];
  }
}
