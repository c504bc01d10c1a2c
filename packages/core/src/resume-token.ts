/**
 * The `_meta` key of a parked call's resume token. A call parked at a question page of a Parley
 * server (its client could not be asked, so the result carries the page's link) names its token
 * there, in the result's `_meta`; the client sends it back under the same key, in the `_meta` of the
 * same call made again, and only that call goes on with the person's answers. It is also the
 * extension (`capabilities.extensions`) a client declares when it carries tokens back: without it, a
 * server cannot park an anonymous 2026-07-28 call, since nothing else tells its caller from another.
 */
export const PARLEY_RESUME_META = 'dev.parley/resume';
