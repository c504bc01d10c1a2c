import { ask, type ParleyServer, ToolError } from '@parley/server';
import * as z from 'zod/v4';
import { RETURN_REASONS } from '../db.js';
import { addDays, type Deps, isoDate, reply, stopped } from './deps.js';

/** How many times a past pickup date is asked again before the call gives up. */
const DATE_RETRIES = 2;

/**
 * The return's details, as tool arguments: a caller that already knows them passes them (ask late,
 * ask once), and the person is asked, in one form, only for what it left out or got wrong
 * (`ctx.elicitMissing`). Every one is optional here, so a caller that cannot ask may still pass all.
 */
const returnArgs = z.object({
  reason: z
    .enum(RETURN_REASONS)
    .optional()
    .meta({ title: 'Reason for the return', description: 'Why the item goes back' }),
  boxes: z
    .number()
    .int()
    .min(1)
    .max(3)
    .optional()
    .meta({ title: 'Boxes', description: 'How many boxes the courier collects (1 to 3)' }),
  pickup_date: z.iso
    .date()
    .optional()
    .meta({ title: 'Pickup date', description: 'YYYY-MM-DD, tomorrow or later' }),
  email: z
    .email()
    .optional()
    .meta({ title: 'Email for the courier label', description: "Default: your account's email" }),
  gift_wrap: z.boolean().optional().meta({ title: 'Gift-wrap the replacement' }),
});

/**
 * `book_return`: one form with every basic field kind, asking only for the details the call lacks,
 * a server-side check that re-asks for a date in the past, and the booking written once
 * (`ctx.once`) however many rounds the call takes. It reaches every person with no fallback of its
 * own: a client that cannot show the form gets it as a page of Brightgrid (Parley's question pages).
 */
export function registerBookReturn(server: ParleyServer, deps: Deps): void {
  server.tool(
    'book_return',
    {
      title: 'Book a return',
      description: 'Books a courier pickup for an item you are sending back to Brightgrid.',
      annotations: { destructiveHint: false, idempotentHint: false },
      input: returnArgs,
    },
    async (args, ctx) => {
      const user = deps.userOf(ctx);
      const today = await ctx.once('today', () => isoDate(deps.now()));
      // Asks only when the reason, boxes or pickup date is missing or wrong; the email and the gift
      // wrap come along in the same form, filled in with what the caller gave or the account's email.
      const answer = await ctx.elicitMissing(args, {
        fields: ['reason', 'boxes', 'pickup_date'],
        optional: ['email', 'gift_wrap'],
        defaults: { email: user.email, pickup_date: addDays(today, 1) },
        message: 'Book a return: tell us why, and when the courier should pick it up.',
        key: 'return',
      });
      if (answer.action !== 'accept') return stopped(answer.action, 'No return booked');

      let pickupDate = answer.value.pickup_date;
      for (let retry = 1; pickupDate < today && retry <= DATE_RETRIES; retry++) {
        const again = await ctx.elicit(
          `The courier cannot come on ${pickupDate}, which is in the past. Pick ${today} or later.`,
          ask.date({ title: 'Pickup date', default: addDays(today, 1) }),
          { key: `pickup_date_retry_${retry}` },
        );
        if (again.action !== 'accept') return stopped(again.action, 'No return booked');
        pickupDate = again.value;
      }
      if (pickupDate < today) throw new ToolError(`No return booked: pick a pickup date from ${today} on.`);

      // The idempotency key makes a round the client sends twice book once.
      const booked = await ctx.once('book', (key) =>
        deps.store.addReturn(
          user.name,
          {
            reason: answer.value.reason,
            email: answer.value.email ?? user.email,
            boxes: answer.value.boxes,
            pickupDate,
            giftWrap: answer.value.gift_wrap === true,
          },
          key,
        ),
      );
      const boxes = booked.boxes === 1 ? '1 box' : `${booked.boxes} boxes`;
      return reply(
        `Return #${booked.id} booked (${booked.reason}): the courier collects ${boxes} on ${booked.pickupDate}; ` +
          `the label goes to ${booked.email}.${booked.giftWrap ? ' The replacement will be gift-wrapped.' : ''}`,
        { return: booked },
      );
    },
  );
}
