/** A child for {@link el}: a node, plain text (never parsed as markup), or nothing. */
export type Child = Node | string | null | undefined | false;

/** Attribute values: a string is set, `true` sets the attribute empty, `false`/`undefined` leave it out. */
export type Attributes = Record<string, string | boolean | undefined>;

/**
 * Creates an element with attributes and children. Text always goes in as text nodes, so nothing a
 * server sends can become markup or a link.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Attributes | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (attributes) {
    for (const name in attributes) {
      const value = attributes[name];
      if (value === true) node.setAttribute(name, '');
      else if (typeof value === 'string') node.setAttribute(name, value);
    }
  }
  node.append(...(children.filter((child) => child || child === '') as (Node | string)[]));
  return node;
}

let counter = 0;

/** A prefix for element ids that no other rendering on the page shares. */
export function idPrefix(): string {
  counter += 1;
  return `parley-${counter}-`;
}
