import { fireEvent, screen, within } from '@testing-library/react';
import { act } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../../core/index.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { ImportReportDialog } from './ImportReportDialog.tsx';

const REPORT: ImportReport = {
  projectName: 'bike-rental',
  source: 'tau2-bench',
  summary: '2 tools, 1 tables (bikes 2 rows), 1 tasks.',
  notRead: [{ item: 'table riders', message: 'Sliced to 5 of 900 rows.' }],
  notCarried: [
    { file: 'tools.yaml', item: 'tool rent_bike', message: 'Its own failure is not carried.' },
    { file: 'scenarios.yaml', item: 'task 0', message: 'No persona.' },
  ],
  counts: { error: 1, warning: 0, info: 0 },
  errors: [
    {
      file: 'tools.yaml',
      line: 3,
      column: 5,
      endLine: 3,
      endColumn: 9,
      severity: 'error',
      code: 'schema',
      message: 'A broken thing.',
    },
  ],
  text: 'Imported tau2-bench domain "bike-rental"…\n',
};

beforeAll(() => {
  // jsdom has no modal dialogs; open is all the component needs.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.open = false;
  };
});

function open() {
  const view = renderWithStore(<ImportReportDialog />);
  act(() => {
    view.store.setState({ importReport: REPORT, importReportOpen: true });
  });
  return { ...view, dialog: screen.getByTestId('import-report') };
}

describe('ImportReportDialog', () => {
  it('lists every item not read and not carried, by file, with the check’s errors', () => {
    const { dialog } = open();
    expect(dialog.textContent).toContain('Check: 1 errors, 0 warnings, 0 info.');
    expect(dialog.textContent).toContain('tools.yaml:3:5 A broken thing.');
    expect(within(dialog).getByRole('list', { name: 'Not read' }).textContent).toBe(
      'table riders: Sliced to 5 of 900 rows.',
    );
    const tools = within(dialog).getByRole('list', { name: 'Not carried in tools.yaml' });
    expect(tools.textContent).toBe('tool rent_bike: Its own failure is not carried.');
    expect(
      within(dialog).getByRole('list', { name: 'Not carried in scenarios.yaml' }).textContent,
    ).toBe('task 0: No persona.');
  });

  it('lists the tools not imported first, with why, before anything else left out', () => {
    const view = renderWithStore(<ImportReportDialog />);
    const reason = 'what it returns could not be read (a dict literal (line 9))';
    act(() => {
      view.store.setState({
        importReport: {
          ...REPORT,
          notCarried: [
            ...REPORT.notCarried,
            {
              file: 'tools.yaml',
              item: 'tool list_bikes',
              message: `Not imported: ${reason}. A dialogue that calls it ends as an error.`,
              notImported: reason,
            },
          ],
        },
        importReportOpen: true,
      });
    });
    const dialog = screen.getByTestId('import-report');
    expect([...dialog.querySelectorAll('h3')].map((h) => h.textContent)).toEqual([
      'Tools not imported (1)',
      'Not read (1)',
      'Not carried, or carried in part (2)',
    ]);
    expect(within(dialog).getByRole('list', { name: 'Tools not imported' }).textContent).toBe(
      `list_bikes: ${reason}`,
    );
    expect(dialog.textContent).toContain('ends as an error, never as a success');
    // Without any, the section is not there.
    act(() => {
      view.store.setState({ importReport: REPORT });
    });
    expect(within(dialog).queryByRole('list', { name: 'Tools not imported' })).toBeNull();
  });

  it('copies the report’s text, and shows it to copy by hand when the browser refuses', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    open();
    writeText.mockResolvedValueOnce(undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Copy report' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(REPORT.text);

    writeText.mockRejectedValueOnce(new Error('denied'));
    fireEvent.click(screen.getByRole('button', { name: 'Copy report' }));
    const box = await screen.findByRole('textbox');
    expect((box as HTMLTextAreaElement).value).toBe(REPORT.text);
  });

  it('closes with Done, and the store says it is closed', () => {
    const { store } = open();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(store.getState().importReportOpen).toBe(false);
  });
});
