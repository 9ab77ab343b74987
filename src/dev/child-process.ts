import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code when the process ends, however it ends. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns a long-running child and keeps the handles needed to stop it cleanly. */
export function startProcess(name: string, command: string, args: string[], options: SpawnOptions): ManagedProcess {
  const child = spawn(command, args, options);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return {
    name,
    child,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `probe` until it resolves true or `timeoutMs` passes. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, exited?: Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited?.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${what}: the process exited before it was ready`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms`);
}
