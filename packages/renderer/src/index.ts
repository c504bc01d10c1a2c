// @parley/renderer: a framework-free form renderer for MCP form-mode elicitations. Plain DOM,
// no dependency beyond @parley/core/form (never @parley/core/url), so any host can mount it.

export type { AskerContext } from './context-text.js';
export {
  type ElicitationAnswer,
  type ElicitationRequest,
  type RenderedElicitation,
  type RenderOptions,
  renderElicitation,
} from './render-elicitation.js';
