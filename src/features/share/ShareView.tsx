import { useMemo, useRef, useState } from 'react';
import { shareUrl, toBundle, zipProject } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { copyText } from '../../ui/clipboard.ts';
import { downloadFile, fileStem } from '../../ui/download.ts';
import { readPicked } from './readFiles.ts';
import { RunExport } from './RunExport.tsx';

/** About what chat tools take before they cut or refuse a link. */
const SHARE_CHAT_LIMIT = 2_000;

/**
 * A link holding the whole project (no server: it is all in the address), the project as a file
 * (bundle or zip), and a way in for links, bundles, zips and run logs.
 */
export function ShareView() {
  // The address without its search or fragment: where this page is served from.
  const project = useAppStore((s) => s.project);
  const openShared = useAppStore((s) => s.openShared);
  const importFiles = useAppStore((s) => s.importFiles);
  const [copied, setCopied] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const picker = useRef<HTMLInputElement>(null);
  const link = useMemo(
    () => shareUrl(window.location.origin + window.location.pathname, project),
    [project],
  );
  const long = link.length > SHARE_CHAT_LIMIT;
  const stem = fileStem(project.name, 'project');

  return (
    <div className="share-view">
      <section aria-labelledby="share-link-title">
        <h3 id="share-link-title">Link to this project</h3>
        <p className="share-faint">
          The six files and the graph layout, compressed into the link itself: nothing is uploaded,
          and no key or endpoint goes with it.
        </p>
        <div className="share-row">
          <button
            type="button"
            className="button"
            onClick={() => {
              void copyText(link).then((ok) => {
                setCopied(ok ? 'Link copied.' : link);
              });
            }}
          >
            Copy link
          </button>
          <span
            className="share-length"
            data-testid="link-length"
            data-long={long ? 'true' : undefined}
          >
            {link.length.toLocaleString()} characters
          </span>
        </div>
        {long && (
          <p className="share-warning" role="note">
            Longer than most chat tools take (about {SHARE_CHAT_LIMIT.toLocaleString()} characters):
            send the file instead.
          </p>
        )}
        {copied &&
          (copied === 'Link copied.' ? (
            <output className="share-faint">{copied}</output>
          ) : (
            <label className="share-field">
              <span>Copy this link</span>
              <input
                readOnly
                value={copied}
                onFocus={(e) => {
                  e.target.select();
                }}
              />
            </label>
          ))}
      </section>

      <section aria-labelledby="share-files-title">
        <h3 id="share-files-title">Files</h3>
        <div className="share-row">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              downloadFile(toBundle(project), `${stem}.policylab.json`, 'application/json');
            }}
          >
            Download bundle (.policylab.json)
          </button>
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              downloadFile(zipProject(project), `${stem}.zip`, 'application/zip');
            }}
          >
            Download zip of the six files
          </button>
        </div>
        <div className="share-row">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => picker.current?.click()}
          >
            Open a file…
          </button>
          <span className="share-faint">
            A bundle, a zip, a run’s log (.json or .json.gz), a tau2-bench domain or an IntellAgent
            input (its folder’s files or a zip of it), or drop files or a folder anywhere on the
            page. It opens as a new project; yours stays as it is.
          </span>
          <input
            ref={picker}
            type="file"
            hidden
            multiple
            data-testid="share-import"
            accept=".json,.zip,.gz,.md,.yaml,.yml,.py,.csv,.toml,application/json,application/zip,application/gzip"
            onChange={(e) => {
              // Copied first: clearing the input (so the same file can be picked again) empties its list.
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              void readPicked(files).then(importFiles);
            }}
          />
        </div>
        <form
          className="share-paste"
          onSubmit={(e) => {
            e.preventDefault();
            void openShared(pasted).then(() => {
              setPasted('');
            });
          }}
        >
          <label className="share-field">
            <span>Or paste a link or a bundle’s text</span>
            <textarea
              rows={2}
              value={pasted}
              onChange={(e) => {
                setPasted(e.target.value);
              }}
            />
          </label>
          <button type="submit" className="button button-quiet" disabled={pasted.trim() === ''}>
            Open
          </button>
        </form>
      </section>

      <RunExport />
    </div>
  );
}
