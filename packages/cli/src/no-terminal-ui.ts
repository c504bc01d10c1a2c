import { describeCall, type ElicitationUI, ParleyError } from '@parley/client';

/**
 * The host used when there is no terminal and no `--answers` file: it never waits for input that
 * cannot come. Each question fails the call with a message that says how to answer it.
 */
export function noTerminalUI(): ElicitationUI {
  const refuse = (
    message: string,
    key: string | undefined,
    server: string,
    call: Parameters<typeof describeCall>[0],
  ) =>
    new ParleyError(
      'unanswered',
      `${server} asks ${JSON.stringify(message)} during ${describeCall(call)}, but there is no terminal to ask it in; pass --answers <file.json> with an answer keyed by ${JSON.stringify(key ?? message)}`,
      { server, call },
    );
  return {
    modes: { form: true, url: true },
    form: async (request, context) => {
      throw refuse(request.message, context.key, context.server.name, context.call);
    },
    url: async (request, _inspection, context) => {
      throw refuse(request.message, context.key, context.server.name, context.call);
    },
  };
}
