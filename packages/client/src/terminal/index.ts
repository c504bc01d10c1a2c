// @parley/client/terminal: the terminal host. Kept off the root entry so hosts that never draw in a
// terminal (the lab, servers, browsers' back ends) load none of its code (@clack/prompts, open).

export { isTerminalSafe, terminalLine, terminalText } from './terminal-text.js';
export { type TerminalUIOptions, terminalUI } from './terminal-ui.js';
