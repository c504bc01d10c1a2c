import { type ParleyServer, resourceResult } from '@parley/server';
import { RED_PIXEL_PNG } from './media.js';

/** The resources and the resource template the resource scenarios read. */
export function addResourceFixtures(server: ParleyServer): void {
  server.resource(
    'test://static-text',
    { name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
    () => 'This is the content of the static text resource.',
  );

  server.resource(
    'test://static-binary',
    { name: 'static-binary', description: 'A static PNG image', mimeType: 'image/png' },
    ({ uri }) => resourceResult({ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG }),
  );

  server.resource(
    'test://template/{id}/data',
    {
      name: 'template-data',
      description: 'Data for one id',
      mimeType: 'application/json',
      complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
    },
    ({ uri, params }) =>
      resourceResult({
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` }),
      }),
  );

  server.resource(
    'test://watched-resource',
    { name: 'watched-resource', description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    () => 'Watched resource content.',
  );
}
