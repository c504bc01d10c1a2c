import type { ServerView } from '../../protocol.js';

/**
 * Where a server is, which its name cannot fake: the origin of its URL, or the command line that
 * started it. A server names itself, so an impostor can call itself "Brightgrid store".
 */
export function serverPlace(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).origin;
    } catch {
      return target;
    }
  }
  return `command: ${target}`;
}

/** The name a server gives itself, compared loosely (case, width and spacing ignored). */
function claimedName(server: ServerView): string | undefined {
  const name = server.info ? server.info.title || server.info.name : undefined;
  return name?.normalize('NFKC').trim().toLowerCase();
}

/** Whether another server the lab is connected to gives itself the same name as `server`. */
export function sharesName(server: ServerView, servers: Iterable<ServerView>): boolean {
  const name = claimedName(server);
  if (name === undefined || name === '') return false;
  for (const other of servers) if (other.id !== server.id && claimedName(other) === name) return true;
  return false;
}

/** What the page says when two servers share a name. */
export const SAME_NAME_WARNING = 'Another server has this name: check where each one is.';
