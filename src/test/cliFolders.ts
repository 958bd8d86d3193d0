import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MINI_FILES } from '../core/testing/miniProject.ts';

/** A fresh folder holding the mini project's files, as `policylab` reads a project. */
export function miniProjectFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'policylab-run-'));
  for (const [name, text] of Object.entries(MINI_FILES)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The CLI's output streams, kept: `io` to pass in, `out` and `err` to read. */
export function capturedIO() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}
