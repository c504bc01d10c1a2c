/**
 * Which names a self-registered app may take. An app that registers itself (RFC 7591) chooses its
 * own name, and the consent page shows it: so Brightgrid's own apps' names are not for taking, and
 * Parley's hosts' names (the lab, the `parley` command) only by an app that, like them, runs on
 * the person's computer (every redirect URI on loopback). Names are compared by a skeleton that
 * ignores case, spacing, punctuation, accents and the usual look-alike letters.
 */

/** Look-alikes folded to one letter (pairs: the look-alike, then the letter): Cyrillic and Greek
 * letters shaped like Latin ones, digits, and I/l. */
const FOLD = new Map(
  'аa αa вb βb сc ϲc еe εe һh нh ηn іl ıl ιl il 1l |l ӏl јj кk κk мm оo οo 0o σo рp ρp ԛq гr ѕs 5s тt τt уy γy хx χx ԝw ωw νv ѵv 3e 8b'
    .split(' ')
    .map((pair) => [pair[0]!, pair[1]!] as const),
);

/** A name reduced to what a person reads in it. */
export function nameSkeleton(name: string): string {
  let out = '';
  for (const char of name.normalize('NFKD').toLowerCase()) {
    const folded = FOLD.get(char) ?? char;
    if (/^[a-z]$/.test(folded)) out += folded;
  }
  return out;
}

/** Brightgrid's own apps: pre-registered, never a self-registered one. */
const BRIGHTGRID = nameSkeleton('Brightgrid');
/** Parley's hosts: they register themselves, always with a loopback redirect. */
const PARLEY = nameSkeleton('Parley');

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether a redirect URI sends the browser back to the person's own computer. */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** Why a self-registered app may not take `name`, or `undefined` when it may. */
export function reservedNameProblem(name: unknown, redirectUris: readonly string[]): string | undefined {
  if (typeof name !== 'string') return undefined;
  const skeleton = nameSkeleton(name);
  if (skeleton.includes(BRIGHTGRID))
    return 'client_name: names like "Brightgrid" belong to Brightgrid\'s own apps; choose your app\'s own name';
  if (skeleton.includes(PARLEY) && !(redirectUris.length > 0 && redirectUris.every(isLoopbackRedirect)))
    return "client_name: names like \"Parley\" belong to Parley's hosts, which sign in through a loopback redirect on the person's computer; choose your app's own name";
  return undefined;
}

/** Why a redirect URI is refused: plain http off loopback, or a user name or password in it. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined; // oidc-provider refuses what does not parse, with its own words
  }
  if (url.username !== '' || url.password !== '')
    return `redirect_uris: ${JSON.stringify(uri.slice(0, 200))} carries a user name or password; register the address without them`;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return `redirect_uris: ${JSON.stringify(uri.slice(0, 200))} is plain http off this computer, so the code would travel unencrypted; use https (or http on 127.0.0.1 or [::1] for an app on the person's computer)`;
  return undefined;
}
