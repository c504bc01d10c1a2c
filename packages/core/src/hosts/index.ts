// @parley/core/hosts: what real MCP hosts declare and do with a form, as data (one profile table,
// each fact with its sources), how a form is lowered for one host, and the host matrix.

export { answerFields, hostShowsDefault } from './answer-fields.js';
export {
  CONFIRM_FIELD,
  CONFIRM_VALUE,
  type LoweredForm,
  type LoweringChange,
  type LoweringRule,
  lowerForm,
  MAX_OPTION_BOOLEANS,
  optionFieldName,
  type RaisedContent,
} from './lower.js';
export {
  builtInProfile,
  type HostTableOptions,
  hostProfileFor,
  hostTable,
  UNKEYABLE_NAMES,
} from './match.js';
export { type HostNote, hostNotes } from './notes.js';
export { HOST_PROFILES } from './profiles.js';
export { HOST_SOURCES } from './sources.js';
export type {
  ChoiceLabels,
  ClientIdentity,
  DefaultsShown,
  EvidenceGrade,
  FieldSupport,
  FormsSupport,
  HostFact,
  HostFields,
  HostProfile,
  HostSource,
  HostWait,
  HostWire,
  UntouchedValues,
  UrlSupport,
} from './types.js';
export { checkVersionRange, versionInRange } from './versions.js';
export { type HostRoute, type HostView, hostMatrix, opensPages, viewForHost } from './view.js';
