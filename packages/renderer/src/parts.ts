// @parley/renderer/parts: the pieces renderElicitation is built from, for a host that draws its own
// views around the forms (the lab's call forms, URL consent and sampling dialogs use them). Each
// keeps the renderer's rule: server text goes into the page as text nodes, never as markup.

export { type AskerContext, askerHeading, callLine } from './context-text.js';
export { type Attributes, type Child, el, idPrefix } from './dom.js';
export { createFieldView, type FieldReading, type FieldView, type FieldViewOptions } from './field-view.js';
