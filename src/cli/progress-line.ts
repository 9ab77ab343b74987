/** One status line, redrawn in place on a terminal and printed every few seconds elsewhere. */
export class ProgressLine {
  private lastPrint = 0;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  update(text: string): void {
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${text}`);
    } else if (Date.now() - this.lastPrint > 2_000) {
      this.out.write(`${text}\n`);
      this.lastPrint = Date.now();
    }
  }

  done(text: string): void {
    this.out.write(this.out.isTTY ? `\r\x1b[2K${text}\n` : `${text}\n`);
  }
}

/** `[#######.....]` for a share of 0..1. */
export function bar(share: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, share)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}
