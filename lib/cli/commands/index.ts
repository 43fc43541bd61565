/** Registry of the service commands (validators are dispatched separately). */
import type { Io } from '../io';
import { readCommands } from './read-cmds';
import { transitionCommands } from './transition-cmd';
import { trustCommands } from './trust-cmds';
import { reportCommands } from './report-cmd';
import { hookCommand } from './hook-cmd';
import { undoCommands } from './undo-cmd';
import { recordCommands } from './record-cmds';
import { watchCommands } from './watch-cmd';
import { doctorCommand } from './doctor-cmd';
import { openCommand } from './open-cmd';
import { versionsCommands } from './versions-cmd';

export interface Command {
  synopsis: string;
  summary: string;
  run(argv: string[], io: Io): Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  ...readCommands,
  ...transitionCommands,
  ...trustCommands,
  ...reportCommands,
  ...undoCommands,
  ...recordCommands,
  ...watchCommands,
  ...versionsCommands,
  hook: hookCommand,
  doctor: doctorCommand,
  open: openCommand,
};
