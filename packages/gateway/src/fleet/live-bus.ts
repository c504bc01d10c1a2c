import type { SealSecret } from '@parley/core';
import { type BusFormat, BusSeal } from '@parley/server/redis';
import { type LiveMessage, MESSAGE_KINDS, readLiveMessage } from './live-wire.js';

/**
 * The gateway fleet bus's format (`BusSeal` from `@parley/server/redis`): messages `pb1.<kind>.<id>.<from>.<token>`,
 * keys derived from `fleet.stateKeys` with a salt of the bus's own, each message checked by
 * `readLiveMessage` once it opens.
 */
export const LIVE_BUS: BusFormat<LiveMessage> = {
  name: 'gateway fleet bus',
  version: 'pb1',
  salt: 'parley/gateway/fleet-bus/v1',
  label: 'parley-gateway-bus/1',
  kinds: MESSAGE_KINDS,
  keysSetting: 'fleet.stateKeys',
  read: readLiveMessage,
};

/** The seal of the gateway fleet bus for a fleet whose replicas share `secrets` (sealing key first). */
export function liveBusSeal(secrets: readonly SealSecret[]): Promise<BusSeal<LiveMessage>> {
  return BusSeal.create(secrets, LIVE_BUS);
}
