// The reusable renderer on its own, as another host would mount it: the minified browser bundle of
// @parley/renderer loaded into a blank page in Chromium.

import { EVERY_FIELD_SCHEMA } from '@parley/testing';
import { type AxeViolation, runAxe } from '@parley/testing/axe';
import {
  BUNDLE_GLOBAL,
  bundleRenderer,
  RENDERER_GOALS,
  type RendererBundle,
} from '@parley/testing/measure-renderer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './helpers/browser.js';

let bundle: RendererBundle;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  bundle = await bundleRenderer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  const context = await browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });
  page = await context.newPage();
  await page.setContent('<!doctype html><html lang="en"><body><main id="host"></main></body></html>');
  await page.addScriptTag({ content: bundle.code });
});

/** Renders a request into #host; answers are collected in window.answers. */
async function render(request: unknown, context?: unknown, secretFields?: string[]): Promise<void> {
  await page.evaluate(
    ({ request, context, secretFields, name }) => {
      const win = window as unknown as Record<string, unknown> & {
        answers: unknown[];
        rendered: { destroy(): void };
      };
      win.answers = [];
      const api = win[name] as { renderElicitation: (...args: unknown[]) => { destroy(): void } };
      win.rendered = api.renderElicitation(document.getElementById('host'), request, {
        context,
        secretFields,
        onAnswer: (answer: unknown) => win.answers.push(answer),
      });
    },
    { request, context, secretFields, name: BUNDLE_GLOBAL },
  );
}

/** Calls `reopen(errors)` on the last rendering. */
async function reopen(errors?: unknown[]): Promise<void> {
  await page.evaluate((errors) => {
    const win = window as unknown as { rendered: { reopen(errors?: unknown[]): void } };
    win.rendered.reopen(errors);
  }, errors);
}

function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((item) => `${item.impact} ${item.id}: ${item.help} (${item.targets.join(', ')})`)
    .join('\n');
}

const answers = () => page.evaluate(() => (window as unknown as { answers: unknown[] }).answers);

describe('the bundle', () => {
  it(`is at most ${RENDERER_GOALS.gzipBytes / 1024} KB minified and gzipped`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(RENDERER_GOALS.gzipBytes);
  });

  it('holds only the renderer and @parley/core/form: no URL inspection, no public-suffix list', () => {
    expect(bundle.inputs.filter((input) => /core\/(src|dist)\/url\/|tldts|punycode/.test(input))).toEqual([]);
    expect(
      bundle.inputs.every((input) => /packages\/(renderer\/(src|dist)|core\/(src|dist)\/form)\//.test(input)),
    ).toBe(true);
  });
});

describe('renderElicitation', () => {
  it('renders every field kind as its native control, named by its title', async () => {
    await render({ message: 'Tell us about your order.', requestedSchema: EVERY_FIELD_SCHEMA });
    const control = (name: string) =>
      page.getByLabel(name, { exact: true }).evaluate((element) => {
        const input = element as HTMLInputElement;
        return `${element.tagName.toLowerCase()}${input.type && element.tagName === 'INPUT' ? `:${input.type}` : ''}${input.inputMode ? `:${input.inputMode}` : ''}`;
      });
    expect(await control('Full name')).toBe('input:text');
    expect(await control('Email')).toBe('input:email');
    expect(await control('Website (optional)')).toBe('input:url');
    expect(await control('Pickup date')).toBe('input:date');
    expect(await control('Meeting time')).toBe('input:datetime-local');
    expect(await control('Weight (kg)')).toBe('input:text:decimal');
    expect(await control('Boxes')).toBe('input:text:numeric');
    expect(await control('Fragile')).toBe('input:checkbox');
    expect(await control('Size')).toBe('select');
    expect(await page.getByLabel('Color').locator('option').allTextContents()).toEqual([
      'Choose…',
      'Red',
      'Green',
    ]);
    expect(await page.getByLabel('Speed').locator('option').allTextContents()).toEqual([
      'Choose…',
      'Standard',
      'Express',
    ]);
    expect(await page.getByRole('group', { name: 'Days' }).getByRole('checkbox').count()).toBe(3);
    expect(
      await page
        .getByRole('group', { name: 'Extras (optional)' })
        .getByRole('checkbox', { name: 'Gift wrap' })
        .count(),
    ).toBe(1);
    expect(await page.getByRole('form', { name: 'A server asks' }).count()).toBe(1);
  });

  it('describes each control with its description, hint and message', async () => {
    await render({ message: 'Hi', requestedSchema: EVERY_FIELD_SCHEMA });
    const description = (label: string) =>
      page.getByLabel(label, { exact: true }).evaluate((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .filter((text) => text !== '')
          .join(' | '),
      );
    expect(await description('Full name')).toBe('As on your ID | From 2 to 40 characters.');
    // Chromium's ICU still calls the zone by its older name.
    expect(await description('Meeting time')).toMatch(/^In your time zone \(Asia\/(Kolkata|Calcutta)\)\.$/);
    expect(await description('Fragile')).toBe('Handle with care');
    await page.getByLabel('Boxes').fill('0');
    expect(await description('Boxes')).toBe(
      'A whole number from 1 to 5. | Enter a whole number between 1 and 5',
    );
  });

  it('pre-fills defaults, date-times on the person’s clock', async () => {
    await render({
      message: 'Defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name', default: 'Ada' },
          when: { type: 'string', title: 'When', format: 'date-time', default: '2026-07-28T12:00:00Z' },
          count: { type: 'integer', title: 'Count', default: 3 },
          ok: { type: 'boolean', title: 'OK', default: true },
          size: { type: 'string', title: 'Size', enum: ['S', 'M'], default: 'M' },
          days: {
            type: 'array',
            title: 'Days',
            items: { type: 'string', enum: ['mon', 'tue'] },
            default: ['tue'],
          },
        },
        required: ['size'],
      },
    });
    expect(await page.getByLabel('Name').inputValue()).toBe('Ada');
    expect(await page.getByLabel('When').inputValue()).toBe('2026-07-28T17:30');
    expect(await page.getByLabel('Count').inputValue()).toBe('3');
    expect(await page.getByLabel('OK').isChecked()).toBe(true);
    expect(await page.getByLabel('Size').inputValue()).toBe('M');
    expect(await page.getByLabel('Size').locator('option').allTextContents()).toEqual(['S', 'M']);
    expect(await page.getByLabel('tue').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Review answers' }).click();
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    expect(await answers()).toEqual([
      {
        action: 'accept',
        content: {
          name: 'Ada',
          when: '2026-07-28T17:30:00+05:30',
          count: 3,
          ok: true,
          size: 'M',
          days: ['tue'],
        },
      },
    ]);
  });

  it('says who asks and during which call', async () => {
    await render(
      { message: 'Which one?', requestedSchema: { type: 'object', properties: {} } },
      {
        server: { name: 'brightgrid', version: '1.0.0', title: 'Brightgrid' },
        call: { kind: 'tool', name: 'book_return' },
        round: 2,
        position: { index: 1, of: 2 },
      },
    );
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('Brightgrid asks');
    expect(await page.locator('.parley-call').textContent()).toBe(
      'During the tool call “book_return” · round 2 · question 1 of 2',
    );
    expect(await page.getByRole('form', { name: 'Brightgrid asks' }).count()).toBe(1);
  });

  it('waits for submit before saying a required field is empty, and blocks until it is filled', async () => {
    await render({
      message: 'Name?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name' } },
        required: ['name'],
      },
    });
    await page.getByLabel('Name').fill('A');
    await page.getByLabel('Name').fill('');
    expect(await page.locator('.parley-error').textContent()).toBe('');
    await page.getByRole('button', { name: 'Review answers' }).click();
    expect(await page.locator('.parley-error').textContent()).toBe('This field is required');
    expect(await page.getByRole('status').textContent()).toBe('One answer needs attention.');
    expect(await page.getByRole('button', { name: 'Accept', exact: true }).isHidden()).toBe(true);
    expect(await answers()).toEqual([]);
  });

  it('keeps answers when going back from the review to edit, and leaves out optional fields left empty', async () => {
    await render({
      message: 'Two fields',
      requestedSchema: {
        type: 'object',
        properties: { a: { type: 'string', title: 'First' }, b: { type: 'string', title: 'Second' } },
        required: ['a'],
      },
    });
    await page.getByLabel('First').fill('one');
    await page.getByRole('button', { name: 'Review answers' }).click();
    expect(await page.locator('.parley-review-list').textContent()).toBe('FirstoneSecondNo answer');
    await page.getByRole('button', { name: 'Edit answers' }).click();
    expect(await page.getByLabel('First').inputValue()).toBe('one');
    expect(await page.getByLabel('First').evaluate((input) => input === document.activeElement)).toBe(true);
    await page.getByLabel('First').fill('uno');
    await page.getByRole('button', { name: 'Review answers' }).click();
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    expect(await answers()).toEqual([{ action: 'accept', content: { a: 'uno' } }]);
  });

  it('answers once: every control is disabled after the first answer', async () => {
    await render({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
    await page.getByRole('button', { name: 'Review answers' }).click();
    await page.getByRole('button', { name: 'Accept', exact: true }).dblclick({ force: true });
    await page.keyboard.press('Escape');
    expect(await answers()).toEqual([{ action: 'accept', content: {} }]);
    expect(await page.locator('button:not([disabled])').count()).toBe(0);
  });

  it.each([
    ['Decline', 'decline'],
    ['Cancel', 'cancel'],
  ])('%s answers %s', async (label, action) => {
    await render({ message: 'Sure?', requestedSchema: EVERY_FIELD_SCHEMA });
    await page.getByRole('button', { name: label }).click();
    expect(await answers()).toEqual([{ action }]);
  });

  it('treats Escape as Cancel, wherever focus is in the form', async () => {
    await render({ message: 'Sure?', requestedSchema: EVERY_FIELD_SCHEMA });
    await page.getByLabel('Size').focus();
    await page.keyboard.press('Escape');
    expect(await answers()).toEqual([{ action: 'cancel' }]);
  });

  it('shows server text as text: no markup, no links', async () => {
    await render({
      message: 'Visit <a href="https://evil.example">https://evil.example</a> <img src=x onerror=alert(1)>',
      requestedSchema: {
        type: 'object',
        properties: {
          site: {
            type: 'string',
            title: '<b>Site</b> https://evil.example',
            description: 'See https://evil.example/help',
            enum: ['https://evil.example'],
          },
        },
      },
    });
    expect(await page.locator('#host a, #host img, #host b').count()).toBe(0);
    expect(await page.locator('.parley-message').textContent()).toContain('<a href="https://evil.example">');
    expect(await page.getByLabel('<b>Site</b> https://evil.example').count()).toBe(1);
  });

  it('refuses a schema outside the subset: it lists the problems and offers only Decline and Cancel', async () => {
    await render({
      message: 'Nested',
      requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } },
    });
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toContain('This question cannot be shown');
    expect(await alert.textContent()).toContain('/properties/address');
    expect(await page.getByRole('button').allTextContents()).toEqual(['Decline', 'Cancel']);
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await answers()).toEqual([{ action: 'decline' }]);
  });

  it('gives every rendering its own ids, and destroy() removes it', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string', title: 'Name' } } };
    await render({ message: 'One', requestedSchema: schema });
    await render({ message: 'Two', requestedSchema: schema });
    const ids = await page.locator('[id]').evaluateAll((elements) => elements.map((element) => element.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(await page.getByLabel('Name').count()).toBe(2);
    await page.evaluate(() => (window as unknown as { rendered: { destroy(): void } }).rendered.destroy());
    expect(await page.locator('form').count()).toBe(1);
  });

  describe('secret fields', () => {
    const KEY_FORM = {
      message: 'Link your courier account.',
      requestedSchema: {
        type: 'object',
        properties: {
          account: { type: 'string', title: 'Account name' },
          apiKey: { type: 'string', title: 'Courier API key', minLength: 8 },
          pin: { type: 'integer', title: 'PIN' },
          region: { type: 'string', title: 'Region', enum: ['eu', 'us'] },
        },
        required: ['account', 'apiKey'],
      },
    };

    it('are typed masked, with no autofill and no spellcheck, beside a named Show button', async () => {
      await render(KEY_FORM, undefined, ['apiKey', 'pin', 'region', 'not-a-field']);
      const attributes = (label: string) =>
        page
          .getByLabel(label, { exact: true })
          .evaluate((input) =>
            ['type', 'autocomplete', 'spellcheck', 'inputmode'].map((name) => input.getAttribute(name)),
          );
      expect(await attributes('Courier API key')).toEqual(['password', 'off', 'false', null]);
      expect(await attributes('PIN (optional)')).toEqual(['password', 'off', 'false', 'numeric']);
      expect(await attributes('Account name')).toEqual(['text', 'off', null, null]);
      // A choice has nothing to mask; only its review is hidden.
      expect(await page.getByLabel('Region (optional)').evaluate((node) => node.tagName)).toBe('SELECT');
      expect(await page.getByRole('button', { name: 'Show Courier API key' }).textContent()).toBe('Show');
      expect(await page.getByRole('button', { name: 'Show PIN' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /^Show/ }).count()).toBe(2);
    });

    it('Show reveals the value and Hide masks it again, from the keyboard too', async () => {
      await render(KEY_FORM, undefined, ['apiKey']);
      const key = page.getByLabel('Courier API key', { exact: true });
      await key.fill('sk-live-123456');
      await page.getByRole('button', { name: 'Show Courier API key' }).focus();
      await page.keyboard.press('Enter');
      expect(await key.getAttribute('type')).toBe('text');
      const hide = page.getByRole('button', { name: 'Hide Courier API key' });
      expect(await hide.textContent()).toBe('Hide');
      expect(await hide.getAttribute('aria-controls')).toBe(await key.getAttribute('id'));
      await page.keyboard.press('Space');
      expect(await key.getAttribute('type')).toBe('password');
      expect(await key.inputValue()).toBe('sk-live-123456');
      expect(await answers()).toEqual([]);
    });

    it('are checked while typed, and the review says how long they are, never what they are', async () => {
      await render(KEY_FORM, undefined, ['apiKey', 'pin', 'region']);
      await page.getByLabel('Account name').fill('acme');
      await page.getByLabel('Courier API key', { exact: true }).fill('short');
      expect(await page.locator('[data-field="apiKey"] .parley-error').textContent()).toMatch(/at least 8/);
      await page.getByLabel('Courier API key', { exact: true }).fill('sk-live-123456');
      await page.getByLabel('PIN (optional)').fill('0042');
      await page.getByLabel('Region (optional)').selectOption('eu');
      await page.getByRole('button', { name: 'Show Courier API key' }).click();
      await page.getByRole('button', { name: 'Review answers' }).click();
      const review = await page.locator('.parley-review-list').textContent();
      expect(review).toBe(
        'Account nameacmeCourier API keyhidden (14 characters)PINhidden (2 characters)Regionhidden',
      );
      expect(await page.locator('#host').textContent()).not.toContain('sk-live');
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      expect(await answers()).toEqual([
        { action: 'accept', content: { account: 'acme', apiKey: 'sk-live-123456', pin: 42, region: 'eu' } },
      ]);
      // Shown before the answer, masked again after it.
      expect(await page.getByLabel('Courier API key', { exact: true }).getAttribute('type')).toBe('password');
    });
    it('pass axe-core, masked and shown, and look right', async () => {
      await page.addStyleTag({ path: new URL('../assets/renderer.css', import.meta.url).pathname });
      await render(
        KEY_FORM,
        { server: { name: 'Brightgrid' }, call: { kind: 'tool', name: 'link_courier_account' } },
        ['apiKey', 'pin'],
      );
      const host = page.locator('#host');
      expect(describeViolations(await runAxe(page, host))).toBe('');
      await page.getByLabel('Courier API key', { exact: true }).fill('sk-live-123456');
      await page.getByRole('button', { name: 'Show Courier API key' }).click();
      expect(describeViolations(await runAxe(page, host))).toBe('');
      await screenshot(page, 'renderer-secret-field', true);
    });
  });

  describe('reopen', () => {
    const NAME_FORM = {
      message: 'Pick a name.',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', title: 'Name' }, note: { type: 'string', title: 'Note' } },
        required: ['name'],
      },
    };

    it('brings the fields back with the host’s messages, enabled, focus on the first one named', async () => {
      await render(NAME_FORM);
      await page.getByLabel('Name').fill('taken');
      await page.getByRole('button', { name: 'Review answers' }).click();
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      expect(await page.locator('button:not([disabled])').count()).toBe(0);
      await reopen([
        { field: 'name', message: 'That name is taken' },
        { field: '', message: 'Try another.' },
      ]);
      expect(await page.locator('[data-field="name"] .parley-error').textContent()).toBe(
        'That name is taken',
      );
      expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('status').textContent()).toBe('Try another.');
      expect(await page.getByLabel('Name').evaluate((input) => input === document.activeElement)).toBe(true);
      expect(await page.getByRole('button', { name: 'Accept', exact: true }).isHidden()).toBe(true);
      await page.getByLabel('Name').fill('free');
      await page.getByRole('button', { name: 'Review answers' }).click();
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      expect(await answers()).toEqual([
        { action: 'accept', content: { name: 'taken' } },
        { action: 'accept', content: { name: 'free' } },
      ]);
    });

    it('without errors stays on its step, so the same answer can be sent again', async () => {
      await render(NAME_FORM);
      await page.getByLabel('Name').fill('Ada');
      await page.getByRole('button', { name: 'Review answers' }).click();
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      await reopen();
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      await page.getByRole('button', { name: 'Decline' }).click({ force: true });
      expect(await answers()).toEqual([
        { action: 'accept', content: { name: 'Ada' } },
        { action: 'accept', content: { name: 'Ada' } },
      ]);
    });
  });

  describe('a yes/no (one boolean field)', () => {
    const CONFIRM = {
      message: 'Cancel order #1001 (kettle, €49)? This cannot be undone.',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Cancel this order?' } },
        required: ['confirm'],
      },
    };
    const ask = (yesNo?: boolean) =>
      page.evaluate(
        ({ request, name, yesNo }) => {
          const win = window as unknown as Record<string, unknown> & { answers: unknown[] };
          win.answers = [];
          const api = win[name] as { renderElicitation: (...args: unknown[]) => { focus(): void } };
          document.getElementById('host')!.replaceChildren();
          api
            .renderElicitation(document.getElementById('host'), request, {
              ...(yesNo !== undefined && { yesNo }),
              onAnswer: (answer: unknown) => win.answers.push(answer),
            })
            .focus();
        },
        { request: CONFIRM, name: BUNDLE_GLOBAL, yesNo },
      );

    it('is answered in one click: Yes, No, or Dismiss, never a checkbox and a review', async () => {
      await ask();
      const buttons = page.getByRole('group', { name: 'Cancel this order?' }).getByRole('button');
      expect(await buttons.allTextContents()).toEqual(['Yes', 'No', 'Dismiss']);
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Yes');
      expect(describeViolations(await runAxe(page, page.locator('#host')))).toBe('');
      await page.getByRole('button', { name: 'Yes' }).click();
      // Answered once: every button is disabled.
      expect(await page.getByRole('button', { name: 'No' }).isDisabled()).toBe(true);
      await ask();
      await page.getByRole('button', { name: 'No' }).click();
      await ask();
      await page.keyboard.press('Escape');
      await ask();
      await page.getByRole('button', { name: 'Dismiss' }).click();
      expect(await answers()).toEqual([{ action: 'cancel' }]);
    });

    it('sends Yes as true and No as false', async () => {
      await ask();
      await page.getByRole('button', { name: 'Yes' }).click();
      expect(await answers()).toEqual([{ action: 'accept', content: { confirm: true } }]);
      await ask();
      await page.getByRole('button', { name: 'No' }).click();
      expect(await answers()).toEqual([{ action: 'accept', content: { confirm: false } }]);
      await ask();
      await page.keyboard.press('Escape');
      expect(await answers()).toEqual([{ action: 'cancel' }]);
    });

    it('is drawn as any other form with yesNo: false', async () => {
      await ask(false);
      expect(await page.getByRole('checkbox', { name: 'Cancel this order?' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Review answers' }).count()).toBe(1);
    });
  });

  it('looks right with its stylesheet', async () => {
    await page.addStyleTag({ path: new URL('../assets/renderer.css', import.meta.url).pathname });
    await render(
      { message: 'Tell us about your order.', requestedSchema: EVERY_FIELD_SCHEMA },
      { server: { name: 'lab-fixture', version: '1.2.3' }, call: { kind: 'tool', name: 'every_field' } },
    );
    const host = page.locator('#host');
    // The stylesheet took: the form's own font and width, labels bold above their inputs.
    const style = await host.locator('.parley-elicitation').evaluate((form) => {
      const computed = getComputedStyle(form);
      return { maxWidth: computed.maxWidth, color: computed.color };
    });
    expect(style).toEqual({ maxWidth: '640px', color: 'rgb(27, 31, 36)' });
    const labelWeights = await host
      .locator('.parley-field > label, .parley-field > legend')
      .evaluateAll((labels) => [...new Set(labels.map((label) => getComputedStyle(label).fontWeight))]);
    expect(labelWeights).toEqual(['600']);
    // Nothing spills out of the form: no control wider than the column it stands in.
    const spills = await host
      .locator('.parley-field')
      .evaluateAll((fields) =>
        fields
          .filter((field) => field.scrollWidth > field.clientWidth + 1)
          .map((field) => field.getAttribute('data-field')),
      );
    expect(spills).toEqual([]);
    // Every field of the schema is drawn, and the styled page passes axe-core (contrast included).
    expect(await host.locator('.parley-field').count()).toBe(
      Object.keys(EVERY_FIELD_SCHEMA.properties).length,
    );
    expect(describeViolations(await runAxe(page, host))).toBe('');
    await screenshot(page, 'renderer-standalone', true);
  });
});
