/** Output sinks, injectable so tests can run commands in-process and read what they print. */
export interface Io {
  out(line: string): void;
  /** Raw text to stdout, no newline added: long listings go out in parts (lib/cli/commands/list-output.ts). */
  write?(text: string): void;
  err(line: string): void;
  /** Is stderr a terminal (progress output only then)? */
  isTTY: boolean;
}

export const processIo: Io = {
  out: (line) => void process.stdout.write(`${line}\n`),
  write: (text) => void process.stdout.write(text),
  err: (line) => void process.stderr.write(`${line}\n`),
  // A getter: process.stderr is made on first use, and making it for a pipe loads the stream modules (a hook's start).
  get isTTY() {
    return !!process.stderr.isTTY;
  },
};
