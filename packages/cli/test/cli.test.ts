import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runParley, stdioTarget } from './run-parley.js';

let dir: string;
const answers = async (name: string, content: unknown): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(content));
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-cli-'));
});

describe('parley, the command table', () => {
  it('shows the commands and exit codes, and refuses to guess without a command', async () => {
    const bare = await runParley([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Commands:\n  tools    list the tools a server offers');
    expect(bare.stderr).toContain('3  the person declined or cancelled');
    const help = await runParley(['help', 'call']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: parley call <target> <tool> \[--arg name=value\]\.\.\./);
  });

  it('names the commands when one is unknown', async () => {
    const run = await runParley(['cal']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'parley: unknown command "cal"; the commands are tools, call, hosts, prompt, read, lab, gateway, logout (see parley help)\n',
    );
  });

  it('asks to quote a server command that was not quoted', async () => {
    const run = await runParley(['call', 'node', fixture('stdio-server.mjs'), 'add']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/quote a server command that has spaces, like parley call "node server.js"/);
  });
});

describe('parley against a stdio server', () => {
  it('lists tools, as text and as JSON', async () => {
    const text = await runParley(['tools', stdioTarget()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^profile {8}Asks for a profile with every field kind$/m);
    const json = await runParley(['tools', stdioTarget(), '--output', 'json']);
    expect(JSON.parse(json.stdout).map((tool: { name: string }) => tool.name)).toContain('two_questions');
  });

  it('calls a tool with arguments typed by its input schema', async () => {
    const run = await runParley(['call', stdioTarget(), 'add', '--arg', 'a=2', '-a', 'b=3']);
    expect(run).toMatchObject({ code: 0, stdout: '5\n' });
    const json = await runParley([
      'call',
      stdioTarget(),
      'add',
      '--json',
      '{"a": 1, "b": 1}',
      '--arg',
      'b=40',
    ]);
    expect(json.stdout).toBe('41\n');
    const wrong = await runParley(['call', stdioTarget(), 'add', '--arg', 'a=two']);
    expect(wrong).toMatchObject({ code: 2, stderr: 'parley: --arg a must be a number; got "two"\n' });
  });

  it('exits 1 when the tool reports an error', async () => {
    const run = await runParley(['call', stdioTarget(), 'fail']);
    expect(run).toMatchObject({ code: 1, stdout: 'it broke\n', stderr: 'parley: fail reported an error\n' });
  });

  it('never waits for a terminal it does not have: it says how to answer instead', async () => {
    const run = await runParley(['call', stdioTarget(), 'two_questions']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'parley: fixture asks "Your name?" during tool "two_questions", but there is no terminal to ask it in; pass --answers <file.json> with an answer keyed by "name"\n',
    );
  });

  it('answers from a file keyed by question', async () => {
    const file = await answers('two.json', { name: { name: 'Bo' }, color: { color: 'red' } });
    const run = await runParley(['call', stdioTarget(), 'two_questions', '--answers', file]);
    expect(run).toMatchObject({ code: 0, stdout: 'Bo likes red\n' });
  });

  it('exits 3 when the call ends because the person declined, and 0 when the tool handles it', async () => {
    const declined = await answers('declined.json', { confirm: { action: 'decline' } });
    const ended = await runParley(['call', stdioTarget(), 'guarded', '--answers', declined]);
    expect(ended.code).toBe(3);
    expect(ended.stderr).toBe('parley: guarded ended after you declined or cancelled\n');
    const handled = await answers('handled.json', { name: { action: 'decline' }, color: { color: 'blue' } });
    const fine = await runParley(['call', stdioTarget(), 'two_questions', '--answers', handled]);
    expect(fine).toMatchObject({ code: 0, stdout: 'decline likes blue\n' });
  });

  it('exits 2 when an answer in the file does not fit the form', async () => {
    const file = await answers('bad.json', { name: { name: 7 }, color: { color: 'red' } });
    const run = await runParley(['call', stdioTarget(), 'two_questions', '--answers', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/does not fit the form \(name: Enter text\)/);
  });

  it('exits 2 for an answers file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{ nope');
    const run = await runParley(['call', stdioTarget(), 'two_questions', '--answers', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^parley: The answers file .*broken\.json is not valid JSON/);
  });

  it('prints every round on stderr with --verbose, never the answers themselves', async () => {
    const file = await answers('multi.json', { step1: { name: 'Secret Name' }, step2: { color: 'teal' } });
    const run = await runParley(['call', stdioTarget(), 'multi_round', '--answers', file, '--verbose']);
    expect(run).toMatchObject({ code: 0, stdout: 'Secret Name picked teal\n' });
    const rounds = run.stderr.split('\n').filter((line) => line.startsWith('[call'));
    expect(rounds).toEqual([
      '[call 1 · round 1] → tools/call "multi_round" {} (modern)',
      expect.stringMatching(/^\[call 1 · round 1\] ← input_required: step1; no state; \d+ ms$/),
      '[call 1 · round 1] answered: step1=accept',
      '[call 1 · round 2] → tools/call "multi_round" {} (modern)',
      expect.stringMatching(/^\[call 1 · round 2\] ← input_required: step2; state 22 bytes; \d+ ms$/),
      '[call 1 · round 2] answered: step2=accept',
      '[call 1 · round 3] → tools/call "multi_round" {} (modern)',
      expect.stringMatching(/^\[call 1 · round 3\] ← result; call took \d+ ms$/),
    ]);
    expect(run.stderr).toMatch(/^parley: connected to fixture 1\.0\.0 \(modern, 2026-07-28\)$/m);
    expect(run.stderr).not.toContain('Secret Name');
  });

  it('gets prompts and reads resources through their questions', async () => {
    const file = await answers('prompt.json', { who: { name: 'Dee' }, pin: { pin: 42 } });
    expect(await runParley(['prompt', stdioTarget(), 'greeting', '--answers', file])).toMatchObject({
      code: 0,
      stdout: 'user: Hello Dee\n',
    });
    expect(await runParley(['read', stdioTarget(), 'secret://note', '--answers', file])).toMatchObject({
      code: 0,
      stdout: 'note for pin 42\n',
    });
  });

  it('speaks the handshake era when asked, answering by message text', async () => {
    const file = await answers('handshake.json', {
      'Your name?': { name: 'Hal' },
      'Favourite color?': { color: 'blue' },
    });
    const run = await runParley([
      'call',
      stdioTarget(),
      'two_questions',
      '--era',
      'handshake',
      '--answers',
      file,
      '-v',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: 'Hal likes blue\n' });
    expect(run.stderr).toMatch(/\(handshake, 2025-11-25\)/);
    expect(run.stderr).toContain('[call 1 · round 1] ← elicitation/create (form)');
  });

  it('exits 4 for a server error and for a server that cannot be reached, saying what the server wrote', async () => {
    const unknown = await runParley(['call', stdioTarget(), 'no_such_tool']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/^parley: fixture answered with error -32602 during tool "no_such_tool"/);
    const broken = await runParley([
      'tools',
      `node -e "console.error('boom: missing config'); process.exit(1)"`,
    ]);
    expect(broken.code).toBe(4);
    expect(broken.stderr).toMatch(
      /^parley: Could not connect to node -e .*check that the command starts an MCP server on stdio\nThe server wrote:\n {2}boom: missing config\n$/,
    );
  });

  it('exits 4 when the server keeps asking past --max-rounds', async () => {
    const file = await answers('loop.json', { again: { ok: true } });
    const run = await runParley(['call', stdioTarget(), 'loop', '--answers', file, '--max-rounds', '2']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^parley: fixture still asked for input after 2 rounds of tool "loop"/);
  });
});

describe('parley against an HTTP server', () => {
  let url: string;
  let stop: () => void;
  beforeAll(async () => {
    const child = spawn(process.execPath, [fixture('http-server.mjs')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    stop = () => child.kill('SIGTERM');
    url = await new Promise((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /listening (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
    });
  });
  afterAll(() => stop());

  it('calls tools on both eras', async () => {
    const file = await answers('http.json', {
      name: { name: 'Ann' },
      color: { color: 'red' },
      'Your name?': { name: 'Ann' },
      'Favourite color?': { color: 'blue' },
    });
    expect(await runParley(['call', url, 'two_questions', '--answers', file])).toMatchObject({
      code: 0,
      stdout: 'Ann likes red\n',
    });
    expect(
      await runParley(['call', url, 'two_questions', '--answers', file, '--era', 'handshake']),
    ).toMatchObject({
      code: 0,
      stdout: 'Ann likes blue\n',
    });
  });

  it('exits 4 when nothing listens at the URL', async () => {
    const run = await runParley(['tools', 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^parley: Could not connect to http:\/\/127\.0\.0\.1:9\/mcp: .*check the URL and that the server is running\n$/,
    );
  });
});
