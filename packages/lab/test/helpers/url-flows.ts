import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, screenshotOf } from './browser.js';
import { useLab } from './form-flows.js';
import { callCard, callTool, dialog, resultOf, waitForNoQuestion } from './lab-page.js';

const SIGN_IN = 'https://login.xn--bcher-kva.com/connect?flow=42';

/** The URL-mode flows the issue lists, for one transport on both eras. */
export function describeUrlFlows(transport: 'stdio' | 'http'): void {
  describe.each(['modern', 'handshake'] as const)(`URL consent over ${transport}, %s era`, (era) => {
    const session = useLab(transport, era);

    it('shows the full URL, the owner highlighted, both host forms and the punycode warning; opens only on Open', async () => {
      const { page } = session;
      const context = page.context();
      const requests: string[] = [];
      const record = (request: Request) => requests.push(request.url());
      context.on('request', record);
      await context.route('https://login.xn--bcher-kva.com/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>Bookshop sign-in</title><p>Signed in</p>',
        }),
      );

      await callTool(page, 'sign_in');
      const box = dialog(page);
      await box.getByRole('heading', { name: 'lab-fixture asks you to open a web page' }).waitFor();
      expect(await box.locator('.parley-message').textContent()).toBe(
        'Sign in to your bookshop account to continue.',
      );
      expect(await box.locator('.url-full').textContent()).toBe(SIGN_IN);
      expect(await box.locator('.url-host').textContent()).toBe('login.bücher.com');
      expect(await box.locator('mark.url-registrable').textContent()).toBe('bücher.com');
      expect(await box.locator('.url-punycode').textContent()).toBe('login.xn--bcher-kva.com');
      const punycode = box.locator('.url-warnings li[data-code="punycode"]');
      expect(await punycode.textContent()).toContain('xn--bcher-kva');
      expect(await box.locator('a').count()).toBe(0);
      expect(await box.getByRole('button', { name: 'Open' }).isEnabled()).toBe(true);
      await screenshot(page, `url-consent-${transport}-${era}`);
      await screenshotOf(box, `lab-url-consent-${transport}-${era}`);
      expect(requests.filter((url) => url.includes('xn--bcher-kva'))).toEqual([]);

      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        box.getByRole('button', { name: 'Open' }).click(),
      ]);
      await popup.waitForLoadState();
      expect(popup.url()).toBe(SIGN_IN);
      expect(await popup.evaluate(() => [window.opener === null, document.referrer])).toEqual([true, '']);
      await waitForNoQuestion(page);

      const card = callCard(page, 'sign_in');
      if (era === 'modern') {
        const flow = card.getByRole('group', { name: 'Web page flow' });
        await flow.waitFor();
        expect(await flow.getByRole('button', { name: "I've finished" }).isVisible()).toBe(true);
        expect(await flow.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
        expect(await card.getAttribute('data-status')).toBe('running');
        await screenshot(page, `url-waiting-${transport}-${era}`);
        await flow.getByRole('button', { name: "I've finished" }).click();
      }
      expect(await resultOf(page, 'sign_in')).toContain('sign_in: accept');
      await card.getByRole('group', { name: 'Web page flow' }).waitFor({ state: 'detached' });
      context.off('request', record);
      await popup.close();
    });

    // On the 2025 era the server hears "accept" at once and its call ends, so there is nothing to stop.
    it.skipIf(era === 'handshake')(
      'can stop a web page flow with Cancel while the server checks',
      async () => {
        const { page } = session;
        await page
          .context()
          .route('https://login.xn--bcher-kva.com/**', (route) => route.fulfill({ body: 'ok' }));
        await callTool(page, 'sign_in');
        const [popup] = await Promise.all([
          page.context().waitForEvent('page'),
          dialog(page).getByRole('button', { name: 'Open' }).click(),
        ]);
        const flow = callCard(page, 'sign_in').getByRole('group', { name: 'Web page flow' });
        await flow.getByRole('button', { name: 'Cancel' }).click();
        expect(await resultOf(page, 'sign_in')).toContain('sign_in: cancel');
        await popup.close();
      },
    );

    it('refuses to open a javascript: URL: Open is disabled and the server hears decline', async () => {
      const { page } = session;
      const popups: string[] = [];
      page.context().on('page', (opened) => popups.push(opened.url()));
      await callTool(page, 'bad_link');
      const box = dialog(page);
      await box.getByRole('heading', { name: 'lab-fixture asks you to open a web page' }).waitFor();
      expect(await box.locator('.url-full').textContent()).toBe('javascript:alert(document.domain)');
      expect(await box.locator('.url-warnings li[data-code="scheme-not-allowed"]').count()).toBe(1);
      expect(await box.getByRole('alert').textContent()).toContain('This address cannot be opened');
      const open = box.getByRole('button', { name: 'Open' });
      expect(await open.isDisabled()).toBe(true);
      await open.click({ force: true });
      await screenshot(page, `url-refused-${transport}-${era}`);
      expect(await box.isVisible()).toBe(true);
      await box.getByRole('button', { name: 'Decline' }).click();
      await waitForNoQuestion(page);
      expect(await resultOf(page, 'bad_link')).toContain('bad_link: decline');
      expect(popups).toEqual([]);
      expect(await page.evaluate(() => location.protocol)).toBe('http:');
    });
  });
}
