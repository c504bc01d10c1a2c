import type { Command } from '../command.js';
import { callCommand } from './call.js';
import { gatewayCommand } from './gateway.js';
import { hostsCommand } from './hosts.js';
import { labCommand } from './lab.js';
import { logoutCommand } from './logout.js';
import { promptCommand } from './prompt.js';
import { readCommand } from './read.js';
import { toolsCommand } from './tools.js';

/** Every `parley` subcommand, in the order `parley help` lists them. Add a command here. */
export const commands: readonly Command[] = [
  toolsCommand,
  callCommand,
  hostsCommand,
  promptCommand,
  readCommand,
  labCommand,
  gatewayCommand,
  logoutCommand,
];
