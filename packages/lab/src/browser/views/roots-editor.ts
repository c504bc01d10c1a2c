import { el } from '@parley/renderer/parts';
import type { RootChoice } from '../../protocol.js';

/**
 * The roots a new connection will declare, chosen in the connect form: rows of a `file://` URI and
 * an optional name, added and removed by the person. No row, no `roots` capability. The lab server
 * checks each URI again before connecting.
 */
export class RootsEditor {
  readonly #list: HTMLOListElement;
  readonly #add: HTMLButtonElement;
  readonly #rows: { uri: HTMLInputElement; name: HTMLInputElement }[] = [];

  constructor(fieldset: HTMLFieldSetElement) {
    this.#list = el('ol', { class: 'root-rows' });
    this.#add = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Add a root');
    this.#add.addEventListener('click', () => this.#addRow());
    fieldset.replaceChildren(
      el('legend', null, 'Roots (optional)'),
      el(
        'p',
        { class: 'roots-note' },
        'Folders the server may work in, as file:// URIs. With none, the lab declares no roots.',
      ),
      this.#list,
      this.#add,
    );
  }

  /** The roots typed so far: rows with a URI, trimmed; an empty name is left out. */
  values(): RootChoice[] {
    return this.#rows.flatMap(({ uri, name }) => {
      const typed = uri.value.trim();
      if (typed === '') return [];
      const label = name.value.trim();
      return [{ uri: typed, ...(label !== '' && { name: label }) }];
    });
  }

  /** Empties the editor after a connection started. */
  clear(): void {
    this.#rows.length = 0;
    this.#list.replaceChildren();
  }

  #addRow(): void {
    const uri = el('input', {
      type: 'text',
      class: 'root-uri',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'file:///home/you/project',
    });
    const name = el('input', { type: 'text', class: 'root-name', autocomplete: 'off', placeholder: 'name' });
    const remove = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Remove');
    const row = { uri, name };
    const item = el('li', { class: 'root-row' }, uri, name, remove);
    remove.addEventListener('click', () => {
      const index = this.#rows.indexOf(row);
      if (index >= 0) this.#rows.splice(index, 1);
      item.remove();
      this.#label();
      this.#add.focus();
    });
    this.#rows.push(row);
    this.#list.append(item);
    this.#label();
    uri.focus();
  }

  /** Each row's controls are named by its place, so a screen reader tells them apart. */
  #label(): void {
    this.#rows.forEach(({ uri, name }, index) => {
      uri.setAttribute('aria-label', `Root ${index + 1} URI`);
      name.setAttribute('aria-label', `Root ${index + 1} name (optional)`);
      const remove = uri.parentElement?.querySelector('button');
      remove?.setAttribute('aria-label', `Remove root ${index + 1}`);
    });
  }
}
