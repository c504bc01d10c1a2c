import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runParley } from './run-parley.js';

// `parley hosts`: the built command against a real Parley server over stdio, showing how each
// profiled host meets the form a tool asks.

const server = `node "${fileURLToPath(new URL('./fixtures/parley-server.mjs', import.meta.url))}"`;

describe('parley hosts', () => {
  it('prints each host, what is changed for it and why, with the sources; the tool does nothing', async () => {
    const run = await runParley(['hosts', server, 'guarded']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Question confirm: Really do it\?\n/);
    expect(run.stdout).toContain(
      '  OpenAI Codex (CLI and app server) (codex-mcp-client): shown in the host\n',
    );
    expect(run.stdout).toContain(
      '  Claude Desktop chat and claude.ai (claude-ai): on a page of the server, by a link in the result\n' +
        '      because Claude Desktop chat and claude.ai declares no form mode\n',
    );
    // The question was declined: the tool said so and did nothing.
    expect(run.stderr).toBe('');
  });

  it('shows a form with every field kind lowered for Codex and Goose, as JSON too', async () => {
    const text = await runParley(['hosts', server, 'profile']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /age: asked as text; the answer is read back as a number \[X3 code, C7 probe;/,
    );
    expect(text.stdout).toMatch(/toppings: asked as one yes\/no field per option \[X3 code/);
    const json = await runParley(['hosts', server, 'profile', '--output', 'json']);
    const [question] = JSON.parse(json.stdout) as {
      key: string;
      hosts: { id: string; route: string; sent?: { properties: Record<string, unknown> } }[];
    }[];
    expect(question!.key).toBe('profile');
    const goose = question!.hosts.find((host) => host.id === 'goose')!;
    expect(goose.route).toBe('in-band');
    expect(goose.sent!.properties.plan).toEqual({ type: 'string', title: 'Plan', enum: ['free', 'pro'] });
    expect(Object.keys(goose.sent!.properties)).toContain('toppings.olives');
    expect(question!.hosts.find((host) => host.id === 'gemini-cli')!.route).toBe('page-link');
  });

  it('walks every question with --answers', async () => {
    const answers = join(tmpdir(), `parley-hosts-${process.pid}.json`);
    writeFileSync(answers, JSON.stringify({ confirm: { ok: true } }));
    const run = await runParley(['hosts', server, 'guarded', '--answers', answers]);
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^Question /gm)).toHaveLength(1);
  });
});
