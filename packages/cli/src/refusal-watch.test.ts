import type { CallEvent } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { RefusalWatch } from './refusal-watch.js';

const base = { callId: 1, round: 1, at: 0 };
const answers = (...actions: ('accept' | 'decline' | 'cancel')[]): CallEvent => ({
  ...base,
  type: 'answers',
  answers: actions.map((action, index) => ({ key: `k${index}`, method: 'elicitation/create', action })),
});

describe('RefusalWatch', () => {
  it('says a call ended on a refusal when the last answers held a decline or cancel', () => {
    const watch = new RefusalWatch();
    watch.onEvent(answers('accept', 'decline'));
    expect(watch.endedOnRefusal).toBe(true);
    watch.onEvent(answers('cancel'));
    expect(watch.endedOnRefusal).toBe(true);
  });

  it('forgets a refusal once the server asks again, or the person accepts', () => {
    const watch = new RefusalWatch();
    watch.onEvent(answers('decline'));
    watch.onEvent({ ...base, type: 'input-required', keys: ['k'], stateBytes: null, ms: 1 });
    expect(watch.endedOnRefusal).toBe(false);
    watch.onEvent(answers('cancel'));
    watch.onEvent({ ...base, type: 'elicitation', mode: 'form' });
    expect(watch.endedOnRefusal).toBe(false);
    watch.onEvent(answers('accept'));
    expect(watch.endedOnRefusal).toBe(false);
  });
});
