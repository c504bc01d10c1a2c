import { elicitationModes } from '../capabilities.js';
import type { RequestedSchema } from '../form/types.js';
import { type LoweringChange, lowerForm } from './lower.js';
import { type HostNote, hostNotes } from './notes.js';
import { HOST_PROFILES } from './profiles.js';
import type { HostProfile } from './types.js';

/**
 * Where a form question goes for one host: shown by the host (`in-band`), or on a page of the server,
 * reached by URL mode (`page-url`) or by a link in the call's result (`page-link`).
 */
export type HostRoute = 'in-band' | 'page-url' | 'page-link';

/** How one host meets one form question: where it goes, what it is sent, and why. */
export interface HostView {
  readonly profile: HostProfile;
  readonly route: HostRoute;
  /** The form the host is sent, as its protocol revision takes it (in-band only). */
  readonly sent?: RequestedSchema;
  /** What was changed for this host, or why it cannot be shown in-band (each with its sources). */
  readonly changes: readonly LoweringChange[];
  /** Why the question goes to a page, in words (not in-band only). */
  readonly why?: string;
  /** What else the host does with this form that the server takes care of (in-band only). */
  readonly notes: readonly HostNote[];
}

/** Whether a host's declared URL mode carries a question page's link (a distrusted one does not). */
export function opensPages(profile: HostProfile, declaredUrl: boolean): boolean {
  return declaredUrl && profile.url.value !== 'distrusted' && profile.url.value !== 'not-declared';
}

/**
 * How `profile`'s host meets a form question, from what it declares (its profile's wire bytes) and
 * what it does: the question as it is sent, or the page it goes to and why. The server decides the
 * same way for a real client (`@parley/server`); this is the view the host matrix is drawn from.
 *
 * @example
 * import { ask, prepareQuestion } from '@parley/core/form';
 *
 * const form = prepareQuestion(ask.many({ a: 'A', b: 'B' })).schema;
 * viewForHost(form, builtInProfile('claude-desktop')!).route; // 'page-link': it declares no elicitation
 * viewForHost(form, builtInProfile('codex')!).changes[0]?.rule; // 'many-as-booleans'
 */
export function viewForHost(
  schema: RequestedSchema,
  profile: HostProfile,
  options: { readonly secret?: boolean } = {},
): HostView {
  const { protocolVersion, capabilities } = profile.wire.value;
  const declared = elicitationModes(capabilities, protocolVersion);
  const page = (changes: readonly LoweringChange[], why: string): HostView => ({
    profile,
    route: opensPages(profile, declared.url) ? 'page-url' : 'page-link',
    changes,
    why,
    notes: [],
  });
  if (options.secret) return page([], 'a secret is asked only on a page of the server');
  if (!declared.form) return page([], `${profile.title} declares no form mode`);
  const lowered = lowerForm(schema, profile, { protocolVersion });
  if (!lowered.ok) return page(lowered.reasons, lowered.reasons.map((reason) => reason.text).join('; '));
  return {
    profile,
    route: 'in-band',
    sent: lowered.schema,
    changes: lowered.changes,
    notes: hostNotes(schema, profile),
  };
}

/**
 * The host matrix of one form question: how each profiled host meets it (default: every built-in
 * profile). `parley hosts` prints it; the docs' host page is drawn from the same table.
 *
 * @example
 * import { ask, prepareQuestion } from '@parley/core/form';
 *
 * hostMatrix(prepareQuestion(ask.integer({ min: 1, max: 3 })).schema).map((view) => `${view.profile.id}: ${view.route}`);
 */
export function hostMatrix(
  schema: RequestedSchema,
  table: readonly HostProfile[] = HOST_PROFILES,
  options: { readonly secret?: boolean } = {},
): HostView[] {
  return table.map((profile) => viewForHost(schema, profile, options));
}
