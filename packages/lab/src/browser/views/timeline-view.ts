import { el } from '@parley/renderer/parts';
import type { CallView } from '../../protocol.js';
import { timelineText } from './timeline-text.js';

/**
 * The rounds of one call as an ordered list that grows in place: new entries are appended, so a
 * screen reader's position and the person's scroll are kept.
 */
export class TimelineView {
  readonly element = el('ol', { class: 'timeline' });
  #shown = 0;

  update(call: CallView): void {
    for (const entry of call.timeline.slice(this.#shown)) {
      this.element.append(
        el(
          'li',
          { 'data-type': entry.type },
          el('span', { class: 'round' }, `Round ${entry.round}`),
          ' ',
          el('span', { class: 'offset' }, `+${Math.max(0, entry.at - call.startedAt)} ms`),
          ' ',
          timelineText(entry),
        ),
      );
    }
    this.#shown = call.timeline.length;
  }
}
