/** The store's two demo accounts. `npm start` prints these so a person can sign in to the store. */
export const DEMO_USERS = [
  { name: 'alice', displayName: 'Alice Liddell', email: 'alice@brightgrid.example', password: 'wonderland' },
  { name: 'bob', displayName: 'Bob Okafor', email: 'bob@brightgrid.example', password: 'bricklayer' },
] as const;

export type DemoUserName = (typeof DEMO_USERS)[number]['name'];
