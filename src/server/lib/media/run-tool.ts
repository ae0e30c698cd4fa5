import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeSeconds, MediaError } from './media-error.ts';

export type TToolName = 'ffmpeg' | 'ffprobe';

export type TToolRun = {
  /** Runs at this niceness through `nice` when it is installed (0: as the server runs). */
  niceness: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called with each line ffmpeg writes to stdout (`-progress pipe:1`). */
  onLine?: ((line: string) => void) | undefined;
  /** Keeps stdout (ffprobe's JSON), up to this many bytes; more is refused as unplayable. */
  keepStdoutBytes?: number | undefined;
};

export type TToolExit = { exitCode: number | null; exitSignal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Enough of stderr to say why ffmpeg failed; with `-v error` the reason is at the end. */
const STDERR_TAIL = 4000;

/** The absolute path of an executable: `command` itself when it names a file, else the first on PATH. */
export async function findExecutable(command: string): Promise<string | undefined> {
  const candidates = command.includes('/')
    ? [path.resolve(command)]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  return undefined;
}

/**
 * Runs ffmpeg or ffprobe and answers how it ended. Throws MediaError when it cannot start
 * (TOOL_MISSING), when `timeoutMs` runs out (TIMED_OUT) or when `signal` fires (ABORTED); in the
 * last two cases the process is killed and has exited before the promise settles, so the caller
 * may remove its files at once. A non-zero exit is answered, not thrown: the caller knows what it
 * means.
 */
export async function runTool(
  name: TToolName,
  command: string,
  args: readonly string[],
  options: TToolRun,
): Promise<TToolExit> {
  const executable = await findExecutable(command);
  if (!executable) {
    throw new MediaError('TOOL_MISSING', `${name} is not installed on the server`, {
      detail: `${command} was not found; install ffmpeg or set ${name === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'}`,
    });
  }
  // `nice` replaces itself with the tool, so the process we signal is the tool itself.
  const nice = options.niceness > 0 ? await findExecutable('nice') : undefined;
  const [file, argv] = nice
    ? [nice, ['-n', String(options.niceness), executable, ...args]]
    : [executable, [...args]];
  if (options.signal?.aborted) throw aborted(options.signal);

  return new Promise<TToolExit>((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let partialLine = '';
    let stopped: MediaError | undefined;

    const stop = (error: MediaError) => {
      if (stopped) return;
      stopped = error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      stop(
        new MediaError('TIMED_OUT', `processing took longer than ${describeSeconds(options.timeoutMs / 1000)}`, {
          detail: `${name} stopped after ${options.timeoutMs} ms`,
        }),
      );
    }, options.timeoutMs);
    const onAbort = () => stop(aborted(options.signal!));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (options.keepStdoutBytes !== undefined) {
        stdoutBytes += chunk.length;
        if (stdoutBytes > options.keepStdoutBytes) {
          stop(new MediaError('UNPLAYABLE', 'not a playable video', { detail: `${name} described more than ${options.keepStdoutBytes} bytes` }));
        } else {
          stdout.push(chunk);
        }
      }
      if (options.onLine) {
        const lines = (partialLine + chunk.toString('utf8')).split('\n');
        partialLine = lines.pop() ?? '';
        for (const line of lines) options.onLine(line.trimEnd());
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_TAIL);
    });

    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      finish();
      reject(new MediaError('FAILED', 'the video could not be converted', { detail: `${name} did not start: ${error.message}`, cause: error }));
    });
    child.once('close', (exitCode, exitSignal) => {
      finish();
      if (stopped) return reject(stopped);
      if (partialLine && options.onLine) options.onLine(partialLine);
      resolve({ exitCode, exitSignal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: stderr.trim() });
    });
  });
}

function aborted(signal: AbortSignal): MediaError {
  return new MediaError('ABORTED', 'processing was cancelled', { cause: signal.reason });
}
