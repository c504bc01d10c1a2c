import { connect, type ParleyClient, type ScriptedAnswers, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, freshDataDir, startBrightgridProcess, stdioCommand } from './processes.js';

// Every Brightgrid tool, its prompt and its resource, driven by the Parley client with scripted
// answers, against real Brightgrid processes: over HTTP and over stdio, on both protocol eras.

type Era = 'modern' | 'handshake';
type Transport = 'http' | 'stdio';

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

const VARIANTS: { transport: Transport; era: Era }[] = [
  { transport: 'http', era: 'modern' },
  { transport: 'http', era: 'handshake' },
  { transport: 'stdio', era: 'modern' },
  { transport: 'stdio', era: 'handshake' },
];

describe.each(VARIANTS)('Brightgrid over $transport, $era era', ({ transport, era }) => {
  let brightgrid: BrightgridProcess | undefined;
  const dataDir = freshDataDir();
  const clients: ParleyClient[] = [];

  beforeAll(async () => {
    if (transport === 'http') brightgrid = await startBrightgridProcess(dataDir);
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    const stopped = await brightgrid?.process.stop();
    if (stopped) expect(stopped.code).toBe(0);
  });

  /** Connects as `user` with scripted answers; returns the client and what it was asked. */
  async function open(answers: ScriptedAnswers, user: 'alice' | 'bob' = 'alice', canAsk = true) {
    const ui = canAsk ? scripted(answers) : { ...scripted(answers), modes: { form: false, url: false } };
    const client =
      transport === 'http'
        ? await connect(brightgrid!.url, {
            ui,
            era,
            headers: { authorization: `Bearer ${brightgrid!.tokens[user]}` },
          })
        : await connect(stdioCommand(), {
            ui,
            era,
            env: { BRIGHTGRID_DATA: dataDir, BRIGHTGRID_USER: user },
            stderr: 'ignore',
          });
    clients.push(client);
    expect(client.era).toBe(era);
    return { client, asked: ui.asked };
  }

  it('book_return asks one form with every basic field, books it once, and lists it afterwards', async () => {
    const pickup = daysFromNow(3);
    const { client, asked } = await open({
      return: { reason: 'Wrong item', email: 'alice@example.com', boxes: 2, pickup_date: pickup },
    });
    const result = await client.callTool('book_return');
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(
      new RegExp(
        `^Return #\\d+ booked \\(Wrong item\\): the courier collects 2 boxes on ${pickup}; the label goes to alice@example.com\\.$`,
      ),
    );

    expect(asked).toHaveLength(1);
    const schema = asked[0]!.requestedSchema!;
    expect(Object.keys(schema.properties)).toEqual(['reason', 'boxes', 'pickup_date', 'email', 'gift_wrap']);
    expect(schema.required).toEqual(['reason', 'boxes', 'pickup_date']);
    expect(schema.properties.reason).toMatchObject({ enum: ['Broken', 'Wrong item', 'No longer needed'] });
    expect(schema.properties.email).toMatchObject({ format: 'email', default: 'alice@brightgrid.example' });
    expect(schema.properties.boxes).toMatchObject({ type: 'integer', minimum: 1, maximum: 3 });
    expect(schema.properties.pickup_date).toMatchObject({ format: 'date', default: daysFromNow(1) });
    expect(schema.properties.gift_wrap).toMatchObject({ type: 'boolean' });

    const listed = await client.callTool('list_bookings');
    const returns = (listed.structuredContent as { returns: { pickupDate: string; giftWrap: boolean }[] })
      .returns;
    // Booked exactly once, however many rounds the call took.
    expect(returns.filter((r) => r.pickupDate === pickup)).toEqual([
      expect.objectContaining({ pickupDate: pickup, giftWrap: false }),
    ]);
  });

  it('book_return asks again for a pickup date in the past, with the reason', async () => {
    const pickup = daysFromNow(5);
    const { client, asked } = await open({
      return: {
        reason: 'Broken',
        email: 'alice@example.com',
        boxes: 1,
        pickup_date: '2020-01-01',
        gift_wrap: true,
      },
      pickup_date_retry_1: { value: pickup },
    });
    const result = await client.callTool('book_return');
    expect(text(result)).toMatch(new RegExp(`collects 1 box on ${pickup}.*will be gift-wrapped\\.$`));
    expect(asked.map((question) => question.key)).toEqual(['return', 'pickup_date_retry_1']);
    expect(asked[1]!.message).toMatch(/cannot come on 2020-01-01, which is in the past/);
  });

  it('book_return gives a client that cannot be asked its page, and books at once with arguments passed', async () => {
    const { client, asked } = await open({}, 'alice', false);
    const onPage = await client.callTool('book_return');
    expect(onPage.isError).toBeFalsy();
    expect(text(onPage)).toContain('Book a return: tell us why, and when the courier should pick it up.');
    expect(text(onPage)).toMatch(
      /Answer here: http:\/\/127\.0\.0\.1:\d+\/parley\/questions\/[A-Za-z0-9_-]{43}/,
    );
    expect(text(onPage)).toContain('call book_return again with the same arguments');
    // A caller that knows the details passes them, and is not asked at all.
    const pickup = daysFromNow(4);
    const booked = await client.callTool('book_return', { reason: 'Broken', boxes: 1, pickup_date: pickup });
    expect(text(booked)).toMatch(
      new RegExp(`collects 1 box on ${pickup}; the label goes to alice@brightgrid\\.example\\.$`),
    );
    expect(asked).toEqual([]);
  });

  it('book_return asks only for what the call left out, with what it gave filled in', async () => {
    const pickup = daysFromNow(2);
    const { client, asked } = await open({
      return: { reason: 'Broken', boxes: 3, pickup_date: pickup, email: 'alice@brightgrid.example' },
    });
    // Only the reason given (the lab's call form makes this easy): the rest is asked, the reason kept.
    const result = await client.callTool('book_return', { reason: 'Wrong item' });
    expect(text(result)).toMatch(
      new RegExp(`booked \\(Broken\\): the courier collects 3 boxes on ${pickup}`),
    );
    expect(asked).toHaveLength(1);
    const schema = asked[0]!.requestedSchema!;
    expect(Object.keys(schema.properties)).toEqual(['boxes', 'pickup_date', 'reason', 'email', 'gift_wrap']);
    expect(schema.properties.reason).toMatchObject({ default: 'Wrong item' });
    expect(asked[0]!.message).toBe('Book a return: tell us why, and when the courier should pick it up.');
  });

  it('book_return books nothing when the person declines', async () => {
    const { client } = await open({ return: { action: 'decline' } });
    const before = await client.callTool('list_bookings');
    expect(text(await client.callTool('book_return'))).toBe('No return booked: you declined.');
    expect(await client.callTool('list_bookings')).toEqual(before);
  });

  it('book_flight takes three rounds, each built from the answers before it', async () => {
    const date = daysFromNow(30);
    const { client, asked } = await open({
      destination: { value: 'OSL' },
      date: { value: date },
      confirm: { value: true },
    });
    const result = await client.callTool('book_flight');
    expect(text(result)).toMatch(new RegExp(`^Flight #\\d+ booked: Oslo \\(OSL\\) on ${date}, €164\\.$`));
    expect(asked.map((question) => [question.key, question.round, question.message])).toEqual([
      ['destination', 1, 'Where would you like to fly?'],
      ['date', 2, 'When do you want to fly to Oslo?'],
      ['confirm', 3, `Book Oslo (OSL) on ${date} for €164?`],
    ]);
    expect(asked[0]!.requestedSchema!.properties.value).toMatchObject({
      oneOf: expect.arrayContaining([{ const: 'OSL', title: 'Oslo (from €164)' }]),
    });
  });

  it('book_flight books nothing when the person declines a round or says no', async () => {
    const declined = await open({ destination: { value: 'LIS' }, date: { action: 'decline' } });
    expect(text(await declined.client.callTool('book_flight'))).toBe('No flight booked: you declined.');
    expect(declined.asked).toHaveLength(2);

    const saidNo = await open({
      destination: { value: 'LIS' },
      date: { value: daysFromNow(9) },
      confirm: { value: false },
    });
    expect(text(await saidNo.client.callTool('book_flight'))).toBe(
      'No flight booked: you chose not to book it.',
    );
    const flights = (await saidNo.client.callTool('list_bookings')).structuredContent as {
      flights: { city: string }[];
    };
    expect(flights.flights.filter((flight) => flight.city === 'Lisbon')).toEqual([]);
  });

  it('deploy confirms with a titled choice, a boolean and a date-time, filling the defaults', async () => {
    const { client, asked } = await open({ deploy: { window: '2030-05-04T09:30:00+02:00' } });
    const result = await client.callTool('deploy', { service: 'checkout', version: '1.4.2' });
    expect(text(result)).toMatch(
      /^Deployment #\d+ scheduled: checkout 1\.4\.2 to staging at 2030-05-04T09:30:00\+02:00\. The team will be notified\.$/,
    );
    expect(asked[0]!.message).toBe('Deploy checkout 1.4.2?');
    expect(asked[0]!.requestedSchema!.properties).toMatchObject({
      environment: {
        oneOf: [
          { const: 'staging', title: 'Staging' },
          { const: 'production', title: 'Production' },
        ],
        default: 'staging',
      },
      notify: { type: 'boolean', default: true },
      window: { type: 'string', format: 'date-time' },
    });
  });

  it('deploy refuses a version that is not one, before asking anything', async () => {
    const { client, asked } = await open({});
    const result = await client.callTool('deploy', { service: 'checkout', version: 'latest' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Invalid arguments for tool deploy: version: use a version like 1.4.2');
    expect(asked).toHaveLength(0);
  });

  it('select_tags asks a titled multi-select with min and max, pre-filled, and saves the choice', async () => {
    const { client, asked } = await open({ tags: { value: ['gift', 'new'] } });
    const result = await client.callTool('select_tags', { sku: 'BG-300' });
    expect(text(result)).toBe('Smart plug (BG-300) is now tagged: Gift idea, New arrival.');
    expect(asked[0]!.requestedSchema!.properties.value).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: expect.arrayContaining([{ const: 'eco', title: 'Eco-friendly' }]) },
    });

    const again = await open({ tags: { action: 'cancel' } });
    expect(text(await again.client.callTool('select_tags', { sku: 'BG-300' }))).toBe(
      'Tags of BG-300 unchanged: cancelled.',
    );
    expect(again.asked[0]!.requestedSchema!.properties.value).toMatchObject({ default: ['gift', 'new'] });
  });

  it('select_tags names the products when the SKU is unknown', async () => {
    const { client, asked } = await open({});
    const result = await client.callTool('select_tags', { sku: 'BG-999' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'No product BG-999; use one of BG-100 (Desk lamp), BG-200 (Solar garden light), BG-300 (Smart plug).',
    );
    expect(asked).toHaveLength(0);
  });

  it('the write_review prompt asks how the product was before it answers', async () => {
    const { client, asked } = await open({ review: { stars: 4, mention_delivery: true } });
    const prompt = await client.getPrompt('write_review', { sku: 'BG-100' });
    expect(asked[0]!.message).toBe('How did you like the Desk lamp (BG-100)?');
    expect(prompt.messages[0]!.content).toEqual({
      type: 'text',
      text: 'Write a short warm customer review of the Desk lamp (BG-100) from Brightgrid, giving it 4 out of 5 stars. Mention how the delivery went.',
    });
  });

  it('the returns resource shares them only after the person agrees, and hides emails unless asked', async () => {
    const booked = await open({
      return: {
        reason: 'No longer needed',
        email: 'private@example.com',
        boxes: 3,
        pickup_date: daysFromNow(2),
      },
    });
    await booked.client.callTool('book_return');

    const shared = await open({ share: { share: true } });
    const read = await shared.client.readResource('brightgrid://returns');
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(shared.asked[0]!.message).toMatch(/^Share your \d+ returns? with this client\?$/);
    expect(body.shared).toBe(true);
    expect(body.returns.length).toBeGreaterThan(0);
    expect(body.returns.every((row: { email: string }) => row.email === '(hidden)')).toBe(true);

    const refused = await open({ share: { action: 'decline' } });
    const nothing = await refused.client.readResource('brightgrid://returns');
    expect(JSON.parse((nothing.contents[0] as { text: string }).text)).toEqual({
      shared: false,
      returns: [],
    });
  });

  it('keeps each user to their own bookings', async () => {
    const bob = await open(
      { return: { reason: 'Broken', email: 'bob@example.com', boxes: 1, pickup_date: daysFromNow(4) } },
      'bob',
    );
    expect(text(await bob.client.callTool('book_return'))).toMatch(/^Return #\d+ booked/);
    const bobs = (await bob.client.callTool('list_bookings')).structuredContent as {
      returns: { user: string }[];
    };
    expect(bobs.returns).toHaveLength(1);
    expect(bobs.returns[0]!.user).toBe('bob');
    const alices = (await (await open({})).client.callTool('list_bookings')).structuredContent as {
      returns: { user: string }[];
    };
    expect(alices.returns.every((row) => row.user === 'alice')).toBe(true);
  });
});

describe('Brightgrid over HTTP without a token', () => {
  let brightgrid: BrightgridProcess;
  beforeAll(async () => {
    brightgrid = await startBrightgridProcess();
  });
  afterAll(async () => {
    expect((await brightgrid.process.stop('SIGINT')).code).toBe(0);
  });

  it.each(['modern', 'handshake'] as const)(
    'refuses to act for nobody (%s era), naming the fix',
    async (era) => {
      const client = await connect(brightgrid.url, { ui: scripted({}), era });
      try {
        const result = await client.callTool('book_return');
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/does not know who you are: send "Authorization: Bearer <token>"/);
      } finally {
        await client.close();
      }
    },
  );

  it('revokes the tokens it printed when it stops', async () => {
    const dataDir = freshDataDir();
    const first = await startBrightgridProcess(dataDir);
    expect(await first.process.stop()).toEqual({ code: 0, signal: null });
    const second = await startBrightgridProcess(dataDir);
    try {
      // A revoked token is refused (401 invalid_token), not served as nobody.
      const stale = await fetch(`${second.url}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${first.tokens.alice}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(stale.status).toBe(401);
      expect(stale.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      await expect(
        connect(second.url, { ui: scripted({}), headers: { authorization: `Bearer ${first.tokens.alice}` } }),
      ).rejects.toThrow();
      const fresh = await connect(second.url, {
        ui: scripted({}),
        headers: { authorization: `Bearer ${second.tokens.alice}` },
      });
      expect(text(await fresh.callTool('list_bookings'))).toBe(
        'Order #1002: Solar garden light, €24, open\nOrder #1001: Desk lamp, €39, open',
      );
      await fresh.close();
    } finally {
      await second.process.stop();
    }
  });
});
