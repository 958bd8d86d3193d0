import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../core/index.ts';
import { BIG_LOG_POLICIES, manyDialoguesLog } from '../../core/testing/bigLogs.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { DialogueList } from './DialogueList.tsx';

describe('DialogueList', () => {
  it('shows a long run’s first hundred dialogues, then more or all on request', () => {
    const report = reportOf(manyDialoguesLog(250), BIG_LOG_POLICIES);
    expect(report.dialogues).toHaveLength(250);
    renderWithStore(<DialogueList report={report} live={false} run="r1" />);
    const table = screen.getByRole('table', { name: 'Dialogues' });
    const rows = () => within(table).getAllByRole('row').length - 1;
    expect(rows()).toBe(100);
    expect(screen.getByTestId('dialogues-more').textContent).toContain(
      '100 of 250 dialogues shown.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show 100 more' }));
    expect(rows()).toBe(200);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 250' }));
    expect(rows()).toBe(250);
    expect(screen.queryByTestId('dialogues-more')).toBeNull();
    // The rows are the report's, in its order.
    expect(within(table).getAllByRole('rowheader').at(-1)?.textContent).toBe(
      report.dialogues.at(-1)?.dialogue,
    );
  });
});
