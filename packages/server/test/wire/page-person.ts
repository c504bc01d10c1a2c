/** What a question page's island says (the data its script renders). */
export interface PageIsland {
  readonly server: { readonly name: string; readonly title?: string };
  readonly call: { readonly kind: string; readonly name: string };
  readonly message: string;
  readonly requestedSchema: { readonly properties: Record<string, unknown>; readonly required?: string[] };
  readonly secretFields: readonly string[];
  readonly confirm?: boolean;
  readonly csrf: string;
  readonly answerUrl: string;
  readonly after: 'url' | 'retry';
}

/** A person answering a question page with plain HTTP, as its script does (same origin, JSON). */
export class PagePerson {
  constructor(private readonly headers: Record<string, string> = {}) {}

  /** Opens the page: its status, and its island when it is a question. */
  async open(
    url: string,
  ): Promise<{ status: number; island?: PageIsland; html: string; response: Response }> {
    const response = await fetch(url, { headers: this.headers, redirect: 'manual' });
    const html = await response.text();
    const match = /<script type="application\/json" id="parley-question">([^<]*)<\/script>/.exec(html);
    return {
      status: response.status,
      html,
      response,
      ...(match && { island: JSON.parse(match[1]!) as PageIsland }),
    };
  }

  /** Opens the page and answers it; the POST's status and JSON. */
  async answer(
    url: string,
    answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> },
  ): Promise<{
    status: number;
    body: { ok: boolean; message: string; errors?: unknown[] };
    island: PageIsland;
  }> {
    const opened = await this.open(url);
    if (!opened.island)
      throw new Error(`no question on ${url} (HTTP ${opened.status}): ${opened.html.slice(0, 300)}`);
    const island = opened.island;
    return { ...(await this.post(island.answerUrl, { csrf: island.csrf, ...answer })), island };
  }

  /** Posts an answer body as the page's script would. */
  async post(
    url: string,
    body: unknown,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; body: { ok: boolean; message: string; errors?: unknown[] } }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        ...this.headers,
        'content-type': 'application/json',
        accept: 'application/json',
        origin: new URL(url).origin,
        'sec-fetch-site': 'same-origin',
        ...extra,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as never };
  }
}

/** The first link to a question page in a text (a parked call's result). */
export function pageLinkIn(text: string): string {
  const match = /https?:\/\/\S+\/parley\/questions\/[A-Za-z0-9_-]{43}/.exec(text);
  if (!match) throw new Error(`no question page link in: ${text}`);
  return match[0];
}
