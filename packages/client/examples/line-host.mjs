// A host in under 30 lines, on plain stdin/stdout: node line-host.mjs "node server.js" <tool>
import { createInterface } from 'node:readline';
import { connect } from '@parley/client';
import { fieldFromText, listFields } from '@parley/core/form';

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function ask(prompt) {
  process.stdout.write(prompt);
  return (await lines.next()).value ?? '';
}
const ui = /** @satisfies {import('@parley/client').ElicitationUI} */ ({
  modes: { form: true, url: false },
  async form({ message, requestedSchema }, { server, call, round }) {
    console.log(`${server.name} asks (${call.kind} ${call.name}, round ${round}): ${message}`);
    if ((await ask('Answer? [y/n] ')) !== 'y') return { action: 'decline' };
    const content = /** @type {Record<string, unknown>} */ ({});
    for (const field of listFields(requestedSchema)) {
      const typed = fieldFromText(field, await ask(`${field.title}: `));
      if (typed.ok && typed.value !== undefined) content[field.name] = typed.value;
    }
    return { action: 'accept', content }; // the client fills in defaults and checks it
  },
  url: async () => ({ action: 'decline' }),
});
const client = await connect(process.argv[2], { ui }); // a command line or a URL
const result = await client.callTool(process.argv[3]);
console.log(result.content.map((block) => ('text' in block ? block.text : `[${block.type}]`)).join('\n'));
await client.close();
process.stdin.destroy();
