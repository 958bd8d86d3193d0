import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GuardWhatIf, TranscriptCall } from '../../core/index.ts';
import { CallCard } from './CallCard.tsx';
import { ForeignToolsNote } from './ForeignToolsNote.tsx';

const call: TranscriptCall = {
  call: 'c1',
  turn: 1,
  reply: 1,
  tool: 'cancel_order',
  args: { order_id: 'o1' },
  guard: { allowed: true, reason: 'No rule matched.' },
  result: { ok: true, text: '{"updated":1}', changes: [] },
};

const same: GuardWhatIf = {
  step: 2,
  call: 'c1',
  allowed: true,
  reason: 'No rule matched.',
  differs: false,
};

const whatIfNote = () => screen.getByRole('note', { name: 'What-if under today’s rules' });

describe('a call card’s what-if about today’s tool', () => {
  it('says quietly that today’s rules decide the same when the tool answers the same', () => {
    render(<CallCard call={call} whatIf={{ decision: same, brokenFiles: null }} />);
    expect(whatIfNote().textContent).toBe('What-if Today’s rules decide the same.');
  });

  it('says today’s tool would refuse a call the guards allow, with its error', () => {
    const decision = { ...same, tool: { refuses: true, error: 'Order o1 is held.' } } as const;
    render(<CallCard call={call} whatIf={{ decision, brokenFiles: null }} />);
    const note = whatIfNote();
    expect(note.dataset.whatif).toBe('refuse');
    expect(note.textContent).toContain('Today’s rules decide the same.');
    expect(note.textContent).toContain('Today’s tool would refuse this call: Order o1 is held.');
  });

  it('says today’s tool would run a call the logged tool refused by a precondition', () => {
    const refusedCall: TranscriptCall = {
      ...call,
      result: { ok: false, text: 'Error: Non-pending order.', changes: [] },
    };
    const decision = { ...same, tool: { refuses: false, logged: 'Non-pending order.' } } as const;
    render(<CallCard call={refusedCall} whatIf={{ decision, brokenFiles: null }} />);
    const note = whatIfNote();
    expect(note.dataset.whatif).toBe('allow');
    expect(note.textContent).toContain(
      'Today’s tool would run this call: its preconditions hold, where the logged tool refused it with “Non-pending order.”',
    );
  });

  it('says both when today’s rules allow a refused call and today’s tool would refuse it', () => {
    const refusedCall: TranscriptCall = {
      ...call,
      guard: { allowed: false, rule: 'late', reason: 'Too late.', fallback: 'message' },
    };
    const decision: GuardWhatIf = {
      ...same,
      differs: true,
      tool: { refuses: true, error: 'Non-pending order.' },
    };
    render(<CallCard call={refusedCall} whatIf={{ decision, brokenFiles: null }} />);
    const note = whatIfNote();
    expect(note.dataset.whatif).toBe('refuse');
    expect(note.textContent).toContain('Today’s rules would allow this call');
    expect(note.textContent).toContain('Today’s tool would refuse this call: Non-pending order.');
  });
});

describe('the note on another project’s tools', () => {
  it('names each tool once, and is absent when every tool is this project’s', () => {
    const { rerender } = render(<ForeignToolsNote tools={['book_flight', 'get_user']} />);
    expect(screen.getByRole('note', { name: 'Tools of another project' }).textContent).toBe(
      'This run’s tools are not this project’s: book_flight, get_user; the what-if leaves those calls alone.',
    );
    rerender(<ForeignToolsNote tools={[]} />);
    expect(screen.queryByRole('note', { name: 'Tools of another project' })).toBeNull();
  });
});
