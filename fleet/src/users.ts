/**
 * Brightgrid's seeded demo accounts (examples/brightgrid/src/demo-users.ts): the fleet's flows act
 * as these people, each with a bearer token a replica printed and a browser signed in to the store.
 */
export const USERS = [
  { name: 'alice', password: 'wonderland', email: 'alice@brightgrid.example' },
  { name: 'bob', password: 'bricklayer', email: 'bob@brightgrid.example' },
] as const;

export type UserName = (typeof USERS)[number]['name'];

/** Bearer tokens by user. */
export type Tokens = Readonly<Record<UserName, string>>;

/** The other user (for cross-user probes). */
export function otherUser(user: UserName): UserName {
  return user === 'alice' ? 'bob' : 'alice';
}
