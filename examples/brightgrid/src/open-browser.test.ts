import { describe, expect, it } from 'vitest';
import { shouldOpenBrowser } from './open-browser.js';

describe('shouldOpenBrowser', () => {
  it('opens on Linux only with a display', () => {
    expect(shouldOpenBrowser(false, {}, 'linux')).toBe(false);
    expect(shouldOpenBrowser(false, { DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(shouldOpenBrowser(false, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(shouldOpenBrowser(false, { DISPLAY: '' }, 'linux')).toBe(false);
  });

  it('opens on macOS and Windows without asking for a display', () => {
    expect(shouldOpenBrowser(false, {}, 'darwin')).toBe(true);
    expect(shouldOpenBrowser(false, {}, 'win32')).toBe(true);
  });

  it('never opens with --no-open', () => {
    expect(shouldOpenBrowser(true, { DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(shouldOpenBrowser(true, {}, 'darwin')).toBe(false);
  });
});
