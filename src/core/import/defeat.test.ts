import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFromFiles } from '../bundle.ts';
import { parseProject } from '../format/parseProject.ts';
import { seedDatabase } from '../sim/database.ts';
import { runTool } from '../sim/toolRuntime.ts';
import { readTau2Domain } from './tau2.ts';
import { projectOfDomain } from './toProject/index.ts';

// A domain written to defeat the reader (testdata/tau2-defeat): tools it can follow, and one
// tool for each construct it cannot or could not once (an error returned from inside a block, a log line, a model
// method, max(), isinstance, del, a public tool called as a helper, setattr, a set built from a
// table, a search loop, an f-string answer). None may come out as a tool that answers success.
const folder = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  'testdata',
  'tau2-defeat',
);
const files = new Map(
  ['policy.md', 'tasks.json', 'db.json', 'tools.py', 'data_model.py'].map((name) => [
    name,
    readFileSync(path.join(folder, name), 'utf8'),
  ]),
);
const imported = projectOfDomain(readTau2Domain('parcel', files));
const { model } = parseProject(projectFromFiles('parcel', imported.files).project);
const NOW = '2026-01-01T00:00:00Z';

/** Arguments that fit a tool's parameters, naming the seed's first parcel and customer. */
function argsFor(name: string): Record<string, unknown> {
  const tool = model.tools.find((t) => t.name === name);
  const values: Record<string, unknown> = {
    parcel_id: 'P1',
    customer_id: 'c1',
    owner: 'c1',
    town: 'Hull',
    note: 'call first',
    weight: 3,
    amounts: [1, 4],
    extra: { late: 'yes' },
  };
  return Object.fromEntries(
    Object.keys(tool?.parameters.properties ?? {}).map((key) => [key, values[key]]),
  );
}

describe('a domain written to defeat the reader', () => {
  it('carries the tools it can follow, and marks every other one not imported', () => {
    // credit_customer's max() reads as CEL's max; redirect_parcel's early returns as branches;
    // quote's float in an f-string as Python writes it; add_note's log line changes nothing;
    // touch_parcel's setattr names its field;
    // find_heaviest's loop keeps a best-so-far the reader does not follow, so the owner's
    // parcels stand in for its answer, as the report says.
    expect(model.tools.filter((t) => t.notImported === undefined).map((t) => t.name)).toEqual([
      'hold_parcel',
      'get_parcel',
      'redirect_parcel',
      'add_note',
      'credit_customer',
      'reweigh',
      'touch_parcel',
      'find_heaviest',
      'quote',
    ]);
    // reweigh holds the parcel through a public tool after changing its weight: on a parcel not
    // at the depot the call fails after the change, which Python keeps. That path is not
    // carried: there a call is an error of the project; elsewhere the tool does what it does.
    const reweighed = (parcel_id: string) =>
      runTool(
        model,
        seedDatabase(model).db,
        { tool: 'reweigh', args: { parcel_id, weight: 3 } },
        { now: NOW },
      );
    const atDepot = reweighed('P1');
    expect(atDepot.ok && atDepot.db.parcels?.[0]).toMatchObject({ weight: 3, state: 'held' });
    const offDepot = reweighed('P2');
    expect(offDepot).toMatchObject({ ok: false, notImported: true });
    expect(offDepot.ok ? '' : offDepot.error).toMatch(
      /^Tool "reweigh" was not imported on this path: PolicyLab could not follow the path at line \d+: it fails \("Only a parcel at the depot can be held"\) after a change, which Python keeps$/,
    );
    expect(imported.notCarried.find((n) => n.item === 'tool find_heaviest')?.message).toMatch(
      /^Returns the matching rows .*, not the source's own output\.$/,
    );
    // Each is listed first in the report, with the reason.
    const listed = imported.notCarried.filter((n) => n.notImported !== undefined);
    expect(listed.map((n) => n.item)).toEqual(
      model.tools.filter((t) => t.notImported !== undefined).map((t) => `tool ${t.name}`),
    );
  });

  it('answers no call to a tool it did not carry with success', () => {
    const { db } = seedDatabase(model);
    for (const tool of model.tools) {
      const outcome = runTool(
        model,
        db,
        { tool: tool.name, args: argsFor(tool.name) },
        { now: NOW },
      );
      if (tool.notImported !== undefined) {
        expect(outcome, tool.name).toMatchObject({ ok: false, notImported: true, db });
        continue;
      }
      // What is carried does what the source does: hold_parcel holds P1, get_parcel returns it.
      expect(outcome.ok, tool.name).toBe(true);
    }
    const held = runTool(
      model,
      db,
      { tool: 'hold_parcel', args: { parcel_id: 'P1' } },
      { now: NOW },
    );
    expect(held.ok && held.db.parcels?.find((p) => p.parcel_id === 'P1')?.state).toBe('held');
    const noted = runTool(
      model,
      db,
      { tool: 'add_note', args: { parcel_id: 'P2', note: 'late' } },
      { now: NOW },
    );
    expect(noted.ok && noted.db.parcels?.[1]?.notes).toEqual(['fragile', 'P2: late']);
    const touched = runTool(
      model,
      db,
      { tool: 'touch_parcel', args: { parcel_id: 'P1' } },
      { now: NOW },
    );
    expect(touched.ok && touched.db.parcels?.[0]?.state).toBe('in_transit');
    // A float in an f-string is written as Python writes it.
    const quoted = runTool(model, db, { tool: 'quote', args: { weight: 2 } }, { now: NOW });
    expect(quoted.ok && JSON.parse(quoted.result)).toBe('3.0 pounds');
    // An early return is a branch: a parcel that left the depot keeps its town, as in Python.
    const town = (args: Record<string, unknown>) => {
      const out = runTool(model, db, { tool: 'redirect_parcel', args }, { now: NOW });
      return out.ok ? out.db.parcels?.map((p) => p.town) : out.error;
    };
    expect(town({ parcel_id: 'P1', town: 'Hull' })).toEqual(['Hull', 'Ayr']);
    expect(town({ parcel_id: 'P2', town: 'Hull' })).toEqual(['Ely', 'Ayr']);
    expect(town({ parcel_id: 'P9', town: 'Hull' })).toEqual(['Ely', 'Ayr']);
    const got = runTool(model, db, { tool: 'get_parcel', args: { parcel_id: 'P2' } }, { now: NOW });
    expect(got.ok && (JSON.parse(got.result) as { town: string }).town).toBe('Ayr');
    expect(
      runTool(model, db, { tool: 'get_parcel', args: { parcel_id: 'P9' } }, { now: NOW }),
    ).toMatchObject({
      ok: false,
      error: 'No such parcel',
    });
  });
});
