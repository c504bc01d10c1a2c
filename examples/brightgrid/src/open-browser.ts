/**
 * Whether `npm start` should open a browser: never with `--no-open`; on macOS and Windows always; on
 * other systems only when a graphical display exists (`DISPLAY` or `WAYLAND_DISPLAY`), so a server,
 * a container or CI never tries to.
 */
export function shouldOpenBrowser(
  noOpen: boolean,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (noOpen) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
