import { randomBytes } from 'node:crypto';

const FLOW_ID = /^[A-Za-z0-9_-]{43}$/;

/** A new flow id: 32 random bytes, base64url (256 bits: unguessable, and says nothing about anyone). */
export function newFlowId(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether text has the shape of a flow id (checked before any store lookup). */
export function isFlowId(text: string): boolean {
  return FLOW_ID.test(text);
}
