/** Output sinks, injectable so tests can run commands in-process and read what they print. */
import fs from 'node:fs';

export interface Io {
  out(line: string): void;
  /** Raw text to stdout, no newline added: long listings go out in parts (lib/cli/commands/list-output.ts). */
  write?(text: string): void;
  err(line: string): void;
  /** Is stderr a terminal (progress output only then)? */
  isTTY: boolean;
}

let stdoutMade: NodeJS.WriteStream | undefined;
/**
 * process.stdout, made on first use: for a pipe, making it loads the stream modules, a few
 * milliseconds of a hook's start that a hook with nothing to say never pays. A reader that
 * closes the pipe early is not an error.
 */
function stdout(): NodeJS.WriteStream {
  if (!stdoutMade) {
    stdoutMade = process.stdout;
    stdoutMade.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  return stdoutMade;
}

export const processIo: Io = {
  out: (line) => void stdout().write(`${line}\n`),
  write: (text) => void stdout().write(text),
  err: (line) => void process.stderr.write(`${line}\n`),
  // A getter: process.stderr is made on first use, and making it for a pipe loads the stream modules (a hook's start).
  get isTTY() {
    return !!process.stderr.isTTY;
  },
};

/**
 * A hook's one short answer, written straight to fd 1: making process.stdout for a pipe loads
 * the stream modules, a few milliseconds of the guard's every deny or note (docs/performance.md,
 * "The hooks"). Were fd 1 non-blocking and full, the rest goes through the stream; a reader
 * that closed the pipe is not an error, as above.
 */
function writeOut(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let off = 0;
  try {
    while (off < bytes.length) off += fs.writeSync(1, bytes, off);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN') stdout().write(bytes.subarray(off));
    else if (code !== 'EPIPE') throw e;
  }
}

/** processIo for the guard: its answer to stdout without the stream modules. */
export const hookIo: Io = {
  out: (line) => writeOut(`${line}\n`),
  write: (text) => writeOut(text),
  err: processIo.err,
  get isTTY() {
    return processIo.isTTY;
  },
};
