// Random requested schemas (the subset's keywords with odd values, hostile property names, any
// JSON at all) never make checkRequestedSchema, parseContent or schemaForProtocolVersion throw: a
// server checks what its handlers ask, and a client checks what servers send, with these. The long
// run is `npm run fuzz` (test/fuzz/hostile-schemas.fuzz.ts).
import { expect, it } from 'vitest';
import { checkRandomSchemas } from './hostile/schema-property.js';

it('random requested schemas never make the schema checks throw (5,000 schemas)', () => {
  const { checked, fitting, accepted } = checkRandomSchemas(5000);
  console.log(
    `random requested schemas: ${checked} checked, ${fitting} fit the subset, ${accepted} random answers accepted`,
  );
  expect(fitting).toBeGreaterThan(0);
  expect(accepted).toBeGreaterThan(0);
});
