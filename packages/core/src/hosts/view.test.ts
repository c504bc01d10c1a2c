import { describe, expect, it } from 'vitest';
import { ask } from '../form/builders.js';
import { prepareQuestion } from '../form/prepare.js';
import { builtInProfile } from './match.js';
import { HOST_PROFILES } from './profiles.js';
import { hostMatrix, viewForHost } from './view.js';

const tags = prepareQuestion(ask.many({ a: 'Alpha', b: 'Beta' }, { title: 'Tags' })).schema;

describe('the host matrix', () => {
  it('has one view per profile, each in-band or on a page with the reason', () => {
    const matrix = hostMatrix(tags);
    expect(matrix.map((view) => view.profile.id)).toEqual(HOST_PROFILES.map((profile) => profile.id));
    for (const view of matrix) {
      if (view.route === 'in-band') expect(view.sent).toBeDefined();
      else expect(view.why).toBeTruthy();
    }
  });

  it('sends hosts that declare nothing to a page by link, and URL hosts by URL unless distrusted', () => {
    expect(viewForHost(tags, builtInProfile('claude-desktop')!)).toMatchObject({
      route: 'page-link',
      why: 'Claude Desktop chat and claude.ai declares no form mode',
    });
    const secret = { secret: true };
    expect(viewForHost(tags, builtInProfile('vscode')!, secret).route).toBe('page-url');
    expect(viewForHost(tags, builtInProfile('mcp-use')!, secret).route).toBe('page-link');
  });

  it('shows each host the form as its protocol revision takes it', () => {
    const codex = viewForHost(tags, builtInProfile('codex')!);
    expect(codex.route).toBe('in-band');
    expect(Object.keys(codex.sent!.properties)).toEqual(['value.a', 'value.b']);
    const choice = prepareQuestion(ask.choice({ a: 'Alpha' })).schema;
    expect(viewForHost(choice, builtInProfile('codex')!).sent!.properties.value).toEqual({
      type: 'string',
      enum: ['a'],
      enumNames: ['Alpha'],
    });
  });
});
