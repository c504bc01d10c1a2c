// "Preview as host", in Chromium: beside the real form, the same question as a host with a profile
// would meet it (the form it is sent, or the page it goes to), with the sources; the real form is
// still the one that is answered.
import { expect, it } from 'vitest';
import { screenshotOf } from './helpers/browser.js';
import { fillEveryField, useLab } from './helpers/form-flows.js';
import {
  callTool,
  resultOf,
  reviewAndAccept,
  waitForNoQuestion,
  waitForQuestion,
} from './helpers/lab-page.js';

const session = useLab('stdio', 'modern');

it('previews the question as Codex and as Claude Desktop beside the real form', async () => {
  const { page } = session;
  await callTool(page, 'every_field');
  const box = await waitForQuestion(page, 'Tell us about your order.');
  const preview = box.getByRole('region', { name: 'Preview as another host' });
  await preview.getByLabel('Preview as host').selectOption({ label: 'OpenAI Codex (CLI and app server)' });
  await expect
    .poll(() => preview.locator('.host-preview-where').textContent())
    .toBe('OpenAI Codex (CLI and app server) (codex-mcp-client): shown in the host, as below.');
  const shown = preview.locator('.host-preview-form');
  expect(await shown.getAttribute('inert')).toBe('');
  // Boxes is text for Codex, with its range in words; each day is a yes/no of its own.
  // (The lab draws a number as a text box with a numeric keyboard; Codex's is plain text.)
  expect(await shown.getByLabel('Boxes').getAttribute('inputmode')).toBeNull();
  expect(await shown.getByText('Enter a whole number from 1 to 5.').count()).toBeGreaterThan(0);
  expect(await shown.getByRole('checkbox', { name: 'mon' }).count()).toBe(1);
  const changes = await preview.locator('.host-preview-changes li').allTextContents();
  expect(changes).toContain(
    'boxes: asked as text; the answer is read back as a number (X3, C7; seen on tui at e55429b4)',
  );
  expect(
    changes.some((change) => change.startsWith('days: asked as one yes/no field per option (X3, C7')),
  ).toBe(true);
  await screenshotOf(box, 'lab-host-preview-codex');

  await preview.getByLabel('Preview as host').selectOption({ label: 'Claude Desktop chat and claude.ai' });
  await expect
    .poll(() => preview.locator('.host-preview-where').textContent())
    .toMatch(
      /asked on a page of the server, by a link in the call’s result, because .*declares no form mode/,
    );
  expect(await shown.locator('form').count()).toBe(0);

  // The real form is untouched by the preview, and is the one answered.
  expect(await box.locator('.dialog-body').getByLabel('Boxes').getAttribute('inputmode')).toBe('numeric');
  await fillEveryField(page);
  await reviewAndAccept(page);
  await waitForNoQuestion(page);
  expect(await resultOf(page, 'every_field')).toMatch(/every_field: accept \{.*"boxes":2/);
});
