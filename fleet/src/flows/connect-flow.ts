import type { BalancedReply } from '../lb/channel.js';
import { toolCall } from '../mcp/modern-call.js';
import { outcomeOf } from '../mcp/outcome.js';
import { USERS, type UserName } from '../users.js';
import { type Browser, hiddenField, redirectPath } from './browser.js';
import type { Flow, Progress, Step } from './flow.js';
import { CONTINUE, type FlowDeps, unexpected } from './rounds-flow.js';

type Stage = 'call' | 'page' | 'sign-in page' | 'sign in' | 'allow' | 'finish';

/**
 * The URL flow: `connect_store_account` sends the person to the store's connect page (on whichever
 * replica the balancer picks), the person's browser signs in if it must and allows the connection,
 * and the retried call must report exactly this person's account. The page must show the client
 * name this flow sent and this person's account, nobody else's.
 */
export class ConnectFlow implements Flow {
  readonly id: number;
  readonly kind = 'url' as const;
  readonly user: UserName;
  readonly #deps: FlowDeps;
  readonly #browser: Browser;
  readonly #clientName: string;
  #stage: Stage = 'call';
  #requestState: string | undefined;
  #pagePath = '';
  #signIn: { path: string; fields: Record<string, string> } | undefined;
  #csrf = '';
  #allowUnclear = false;

  constructor(id: number, user: UserName, deps: FlowDeps, browser: Browser) {
    this.id = id;
    this.user = user;
    this.#deps = deps;
    this.#browser = browser;
    this.#clientName = `fleet-url-${id}`;
  }

  step(): Step {
    const page = (call: Step['call'], label: string): Step => ({ call, label, round: false, retry: 'safe' });
    switch (this.#stage) {
      case 'call':
      case 'finish':
        return {
          call: toolCall({
            tool: 'connect_store_account',
            token: this.#deps.tokens()[this.user],
            clientName: this.#clientName,
            ...(this.#stage === 'finish' && {
              inputResponses: { store_account: { action: 'accept' } },
              ...(this.#requestState !== undefined && { requestState: this.#requestState }),
            }),
          }),
          label: `connect_store_account round ${this.#stage === 'call' ? 1 : 2}`,
          round: true,
          // The page made the link; the retry only reads the flow, so sending it twice is harmless.
          retry: 'safe',
        };
      case 'page':
        return page(this.#browser.get(this.#pagePath), 'connect page');
      case 'sign-in page':
        return page(this.#browser.get(this.#signIn!.path), 'sign-in page');
      case 'sign in':
        return page(this.#browser.post('/signin', this.#signIn!.fields), 'sign in');
      case 'allow':
        // A second POST after an unclear first one finds the flow settled (410) or settles it.
        return page(this.#browser.post(this.#pagePath, { csrf: this.#csrf, decision: 'allow' }), 'allow');
    }
  }

  handle(reply: BalancedReply): Progress {
    if (this.#stage !== 'call' && this.#stage !== 'finish') this.#browser.receive(reply);
    switch (this.#stage) {
      case 'call':
        return this.#called(reply);
      case 'page':
        return this.#pageShown(reply);
      case 'sign-in page': {
        const csrf = hiddenField(reply.body, 'csrf');
        const returnTo = hiddenField(reply.body, 'return_to');
        if (reply.status !== 200 || !csrf || returnTo === undefined)
          return this.#pageFailure('sign-in page', reply);
        const password = USERS.find((user) => user.name === this.user)!.password;
        this.#signIn = {
          path: '/signin',
          fields: { csrf, return_to: returnTo, username: this.user, password },
        };
        this.#stage = 'sign in';
        return CONTINUE;
      }
      case 'sign in': {
        const back = redirectPath(reply, this.#browser.origin);
        if (back !== this.#pagePath || !this.#browser.signedIn) return this.#pageFailure('sign in', reply);
        this.#stage = 'page';
        return CONTINUE;
      }
      case 'allow':
        return this.#allowed(reply);
      case 'finish':
        return this.#finished(reply);
    }
  }

  unclear(): void {
    if (this.#stage === 'allow') this.#allowUnclear = true;
  }

  #called(reply: BalancedReply): Progress {
    const outcome = outcomeOf(reply);
    const question = outcome.kind === 'input_required' ? outcome.questions.store_account : undefined;
    if (outcome.kind !== 'input_required' || question?.mode !== 'url' || !question.url) {
      return unexpected('connect_store_account round 1', outcome);
    }
    const url = new URL(question.url);
    if (url.origin !== this.#browser.origin || !url.pathname.startsWith('/connect/')) {
      return { status: 'failed', reason: `the connect link ${question.url} is not on the balancer's origin` };
    }
    this.#requestState = outcome.requestState;
    this.#pagePath = url.pathname;
    this.#stage = 'page';
    return CONTINUE;
  }

  #pageShown(reply: BalancedReply): Progress {
    const signInPath = redirectPath(reply, this.#browser.origin);
    if (reply.status === 303 && signInPath?.startsWith('/signin')) {
      this.#signIn = { path: signInPath, fields: {} };
      this.#stage = 'sign-in page';
      return CONTINUE;
    }
    if (reply.status !== 200) return this.#pageFailure('connect page', reply);
    if (!reply.body.includes(`<strong>${this.#clientName}</strong>`)) {
      return { status: 'wrong', reason: `url flow ${this.id}: the connect page names another app` };
    }
    if (!reply.body.includes(`account <strong>${this.user}</strong>`)) {
      return { status: 'wrong', reason: `url flow ${this.id}: the connect page shows another account` };
    }
    const csrf = hiddenField(reply.body, 'csrf');
    if (!csrf) return this.#pageFailure('connect page', reply);
    this.#csrf = csrf;
    this.#stage = 'allow';
    return CONTINUE;
  }

  #allowed(reply: BalancedReply): Progress {
    const settledBefore = reply.status === 410 && this.#allowUnclear;
    if (!settledBefore) {
      if (reply.status !== 200 || !reply.body.includes('<h1>Connected</h1>'))
        return this.#pageFailure('allow', reply);
      if (!reply.body.includes(`<strong>${this.user}</strong>`)) {
        return { status: 'wrong', reason: `url flow ${this.id}: connected another account` };
      }
    }
    this.#stage = 'finish';
    return CONTINUE;
  }

  #finished(reply: BalancedReply): Progress {
    const outcome = outcomeOf(reply);
    if (outcome.kind !== 'complete' || outcome.isError)
      return unexpected('connect_store_account round 2', outcome);
    const link = outcome.data.link as { user?: unknown; account?: unknown } | undefined;
    if (link?.user !== this.user || link.account !== this.user) {
      return { status: 'wrong', reason: `url flow ${this.id} (${this.user}) linked ${JSON.stringify(link)}` };
    }
    return { status: 'completed' };
  }

  #pageFailure(stage: string, reply: BalancedReply): Progress {
    const title = /<title>([^<]*)<\/title>/.exec(reply.body)?.[1] ?? reply.body.slice(0, 80);
    return { status: 'failed', reason: `url flow ${this.id}, ${stage}: HTTP ${reply.status} ${title}` };
  }
}
