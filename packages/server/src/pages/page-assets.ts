import {
  QUESTION_PAGE_HEADERS,
  type QuestionPageAssetName,
  questionPageAsset,
} from '@parley/renderer/question-page';

const ASSETS: ReadonlySet<string> = new Set<QuestionPageAssetName>(['question-page.js', 'question-page.css']);

/**
 * Serves the page's script or stylesheet (built by `@parley/renderer`); `undefined` for any other
 * name, which came from the URL.
 */
export function pageAsset(name: string): Response | undefined {
  if (!ASSETS.has(name)) return undefined;
  const asset = questionPageAsset(name as QuestionPageAssetName);
  return new Response(asset.body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      ...QUESTION_PAGE_HEADERS,
      'content-type': asset.type,
      'cache-control': 'public, max-age=3600',
    },
  });
}
