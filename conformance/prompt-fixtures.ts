import { content, message, type ParleyServer, promptResult } from '@parley/server';
import * as z from 'zod/v4';
import { RED_PIXEL_PNG } from './media.js';

/** The prompts the prompt scenarios get. */
export function addPromptFixtures(server: ParleyServer): void {
  server.prompt('test_simple_prompt', { description: 'A simple prompt' }, () =>
    promptResult('This is a simple prompt for testing.'),
  );

  server.prompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      complete: {
        arg1: (value) => ['paris', 'park', 'party', 'test-value'].filter((word) => word.startsWith(value)),
      },
      args: z.object({
        arg1: z.string().describe('First test argument'),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    ({ arg1, arg2 }) => promptResult(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`),
  );

  server.prompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      args: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) =>
      promptResult(
        message.user(
          content.resource({
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          }),
        ),
        'Please process the embedded resource above.',
      ),
  );

  server.prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () =>
    promptResult(message.user(content.image(RED_PIXEL_PNG, 'image/png')), 'Please analyze the image above.'),
  );
}
