// Share-link figures on the airline example (public/examples/airline, no layout).
// share_link_chars_airline: the length of its link's fragment (`p=1.` and the deflated,
// base64url payload). share_link_chars_airline_lz: the same JSON payload as the TypeScript
// playground writes its links, lz-string's compressToEncodedURIComponent, measured in the same run
// (ours should be at least 25% shorter). share_roundtrip_ms: encoding the link and reading it back
// (decompression and every check), median of 21 runs after a warm-up.
import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import {
  PROJECT_FILES,
  decodeShareLink,
  encodeShareLink,
  projectFromFiles,
} from '../../src/core/index.ts';
import { median } from './stats.ts';

const RUNS = 21;

/** The link's length, lz-string's length for the same payload, and the round trip's milliseconds. */
export function shareFigures(): {
  share_link_chars_airline: number;
  share_link_chars_airline_lz: number;
  share_roundtrip_ms: number;
} {
  const files = Object.fromEntries(
    PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
  );
  const { project } = projectFromFiles('airline', files);
  const link = encodeShareLink(project);
  // What encodeShareLink deflates: the name and the files (the example has no layout).
  const payload = JSON.stringify({ name: project.name, files: project.files });
  const lz = LZString.compressToEncodedURIComponent(payload);
  const read = decodeShareLink(link);
  if (!read.ok || JSON.stringify(read.project) !== JSON.stringify(project))
    throw new Error('The airline link does not read back as the airline project.');
  if (LZString.decompressFromEncodedURIComponent(lz) !== payload)
    throw new Error('lz-string does not read back its own payload.');
  const times: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const start = performance.now();
    decodeShareLink(encodeShareLink(project));
    if (run >= 0) times.push(performance.now() - start);
  }
  return {
    share_link_chars_airline: link.length,
    share_link_chars_airline_lz: lz.length,
    share_roundtrip_ms: median(times),
  };
}
