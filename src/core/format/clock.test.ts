import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ticketDesk, ticketDeskWith } from '../testing/ticketDesk.ts';
import { buildClock, isFixedTime } from './clock.ts';
import { parseProject } from './parseProject.ts';

describe('the fixed clock (database.yaml `now:`)', () => {
  it('reads a date and time with its offset into the model', () => {
    expect(parseProject(ticketDesk()).model.now).toBe('2024-05-15T15:00:00-05:00');
    expect(buildClock({ now: '2024-05-15T20:00Z', tables: [] })).toBe('2024-05-15T20:00Z');
  });

  it('leaves the clock free when database.yaml says nothing', () => {
    const project = ticketDeskWith('database.yaml', 'now: 2024-05-15T15:00:00-05:00\n', '');
    const parsed = parseProject(project);
    expect(parsed.model).not.toHaveProperty('now');
    expect(parsed.diagnostics).toEqual([]);
  });

  it.each([
    ['2024-05-15', 'a date without a time'],
    ['2024-05-15T15:00:00', 'no offset'],
    ['2024-02-30T10:00:00Z', 'a day that does not exist'],
    ['2024-05-15T25:00:00Z', 'an hour that does not exist'],
    ['tomorrow at noon', 'words'],
  ])('refuses %s (%s), saying where and how to write it', (text) => {
    const parsed = parseProject(
      ticketDeskWith('database.yaml', '2024-05-15T15:00:00-05:00', `"${text}"`),
    );
    expect(parsed.model).not.toHaveProperty('now');
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]).toMatchObject({
      file: 'database.yaml',
      line: 1,
      code: 'fixed-time',
      severity: 'error',
    });
    expect(parsed.diagnostics[0]?.message).toContain('such as 2024-05-15T15:00:00-05:00');
  });

  it('accepts every real moment written with an offset, and keeps it as written', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        fc.integer({ min: -12, max: 14 }),
        (date, hours) => {
          const sign = hours < 0 ? '-' : '+';
          const offset = `${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
          const text = date.toISOString().slice(0, 19) + offset;
          expect(isFixedTime(text)).toBe(true);
          expect(buildClock({ now: text })).toBe(text);
          expect(isFixedTime(text.slice(0, 19))).toBe(false);
        },
      ),
    );
  });
});
