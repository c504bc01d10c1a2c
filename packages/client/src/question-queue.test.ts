import { describe, expect, it } from 'vitest';
import { QuestionQueue } from './question-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('QuestionQueue', () => {
  it('shows one question at a time, in arrival order, across groups', async () => {
    const queue = new QuestionQueue();
    const log: string[] = [];
    let open = 0;
    let most = 0;
    const ask = (group: string, name: string) =>
      queue.ask(group, new AbortController().signal, async (position) => {
        open += 1;
        most = Math.max(most, open);
        log.push(`${name} ${position.index}/${position.of}`);
        await tick();
        open -= 1;
        return { value: name };
      });
    const answers = await Promise.all([
      ask('call1', 'a'),
      ask('call2', 'x'),
      ask('call1', 'b'),
      ask('call1', 'c'),
    ]);
    expect(answers).toEqual(['a', 'x', 'b', 'c']);
    expect(most).toBe(1);
    expect(log).toEqual(['a 1/3', 'x 1/1', 'b 2/3', 'c 3/3']);
  });

  it('drops a waiting question whose signal aborts, without showing it', async () => {
    const queue = new QuestionQueue();
    const shown: string[] = [];
    let release!: () => void;
    const first = queue.ask('g', new AbortController().signal, async () => {
      shown.push('first');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { value: 1 };
    });
    const controller = new AbortController();
    const second = queue.ask('g', controller.signal, async () => {
      shown.push('second');
      return { value: 2 };
    });
    await tick();
    controller.abort(new Error('call ended'));
    await expect(second).rejects.toThrow('call ended');
    release();
    expect(await first).toBe(1);
    await tick();
    expect(shown).toEqual(['first']);
  });

  it('keeps the next question waiting while a turn holds the person', async () => {
    const queue = new QuestionQueue();
    const order: string[] = [];
    let finish!: () => void;
    const hold = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const first = queue.ask('g', new AbortController().signal, async () => ({ value: 'url', hold }));
    const second = queue.ask('g', new AbortController().signal, async () => {
      order.push('second shown');
      return { value: 'form' };
    });
    expect(await first).toBe('url');
    await tick();
    expect(order).toEqual([]);
    finish();
    expect(await second).toBe('form');
  });

  it('reports busy while anything waits or is shown', async () => {
    const queue = new QuestionQueue();
    const changes: boolean[] = [];
    queue.onBusyChange((busy) => changes.push(busy));
    await Promise.all([
      queue.ask('g', new AbortController().signal, async () => ({ value: 1 })),
      queue.ask('g', new AbortController().signal, async () => ({ value: 2 })),
    ]);
    await tick();
    expect(changes).toEqual([true, false]);
    expect(queue.busy).toBe(false);
  });

  it('passes a failing question on to its caller and goes on with the next', async () => {
    const queue = new QuestionQueue();
    const failed = queue.ask('g', new AbortController().signal, async () => {
      throw new Error('host broke');
    });
    const next = queue.ask('g', new AbortController().signal, async () => ({ value: 'ok' }));
    await expect(failed).rejects.toThrow('host broke');
    expect(await next).toBe('ok');
  });
});
