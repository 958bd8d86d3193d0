import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainFolders, domainName, findDomain, gatherDomain } from './gather.ts';
import { readTau2Domain } from './tau2.ts';

const TAU2 = [
  'data/policy.md',
  'data/tasks.json',
  'data/db.json',
  'src/tools.py',
  'src/data_model.py',
];
const INTELLAGENT = ['wiki.md', 'tools/get_member.py', 'data/members.csv', 'validators/x.py'];
const under = (folder: string, paths: readonly string[]) => paths.map((p) => `${folder}/${p}`);

describe('findDomain', () => {
  it('finds a tau2 domain at the root, in one top folder, or laid out flat', () => {
    expect(findDomain(TAU2)).toEqual({ kind: 'tau2', root: '' });
    expect(findDomain(under('retail', TAU2))).toEqual({ kind: 'tau2', root: 'retail' });
    expect(findDomain(['policy.md', 'tools.py', 'notes.txt'])).toEqual({ kind: 'tau2', root: '' });
  });

  it('finds an IntellAgent input, also one level down as IntellAgent lays its examples out', () => {
    expect(findDomain(INTELLAGENT)).toEqual({ kind: 'intellagent', root: '' });
    expect(findDomain(under('retail/input', INTELLAGENT))).toEqual({
      kind: 'intellagent',
      root: 'retail/input',
    });
  });

  it('takes neither a project folder, one stray file, nor a wiki without tools or data', () => {
    expect(findDomain(['desk/agent.md', 'desk/policies.yaml', 'desk/tools.yaml'])).toBeUndefined();
    expect(findDomain(['data/policy.md'])).toBeUndefined();
    expect(findDomain(['wiki.md', 'notes/a.py'])).toBeUndefined();
    expect(findDomain([])).toBeUndefined();
  });

  it('refuses two domains side by side, naming both folders', () => {
    const found = findDomain([...under('airline', TAU2), ...under('retail', TAU2)]);
    expect(found).toEqual({ error: expect.stringMatching(/"airline\/", "retail\/"/) as string });
  });

  it('finds the same domain wherever the drop puts its folder (property)', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 3 }),
        fc.constantFrom(TAU2, INTELLAGENT),
        fc.array(segment, { maxLength: 4 }),
        (folders, files, litter) => {
          const root = folders.join('/');
          const paths = root === '' ? files : under(root, files);
          // Loose files beside the domain's folder do not move it.
          const extra = litter.map((l) => `${l}.txt`);
          const found = findDomain([...extra, ...paths]);
          expect(found).toEqual({ kind: files === TAU2 ? 'tau2' : 'intellagent', root });
        },
      ),
    );
  });

  it('never throws on any list of paths (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 20 }), (paths) => {
        const found = findDomain(paths);
        if (found !== undefined && 'root' in found) expect(typeof found.root).toBe('string');
      }),
    );
  });
});

describe('gatherDomain', () => {
  const read = (path: string) => `text of ${path}`;

  it('reads a tau2 domain’s files under the names the reader knows, from data/ and src/', () => {
    const found = gatherDomain('tau2', { label: 'x', name: 'retail', paths: TAU2, read });
    if ('error' in found) throw new Error(found.error);
    expect([...found.paths]).toEqual([
      ['policy.md', 'data/policy.md'],
      ['tasks.json', 'data/tasks.json'],
      ['db.json', 'data/db.json'],
      ['tools.py', 'src/tools.py'],
      ['data_model.py', 'src/data_model.py'],
    ]);
    expect(found.files.get('tools.py')).toBe('text of src/tools.py');
    expect(found.name).toBe('retail');
  });

  it('prefers data/ to the folder itself, and takes telecom’s main_policy.md as the policy', () => {
    const found = gatherDomain('tau2', {
      label: 'x',
      name: 'telecom',
      paths: ['policy.md', 'data/main_policy.md', 'tools.py'],
      read,
    });
    if ('error' in found) throw new Error(found.error);
    expect(found.paths.get('policy.md')).toBe('data/main_policy.md');
    expect(found.paths.get('tools.py')).toBe('tools.py');
  });

  it('adds the policy’s fellow documents to agent.md, leaving out solo and workflow variants', () => {
    const paths = [
      'data/policy.md',
      'data/policy_solo.md',
      'data/returns_handbook.md',
      'data/escalation_manual.md',
      'data/escalation_workflow.md',
      'data/README.md',
      'data/notes/deep.md',
      'src/tools.py',
    ];
    const found = gatherDomain('tau2', { label: 'x', name: 'desk', paths, read });
    if ('error' in found) throw new Error(found.error);
    // Only documents beside the policy, not in folders below it.
    expect([...found.paths.values()].filter((p) => p.endsWith('.md'))).toEqual([
      'data/policy.md',
      'data/README.md',
      'data/escalation_manual.md',
      'data/escalation_workflow.md',
      'data/policy_solo.md',
      'data/returns_handbook.md',
    ]);
    const domain = readTau2Domain('desk', found.files);
    const order = ['policy.md', 'escalation_manual.md', 'returns_handbook.md'].map((f) =>
      domain.policy.indexOf(`text of data/${f}`),
    );
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);
    expect(domain.policy).not.toContain('text of data/policy_solo.md');
    expect(domain.policy).not.toContain('text of data/escalation_workflow.md');
    expect(domain.policy).not.toContain('text of data/README.md');
    expect(domain.notes.filter((n) => n.item.endsWith('.md')).map((n) => n.item)).toEqual([
      'README.md',
      'escalation_workflow.md',
      'policy_solo.md',
    ]);
  });

  it('finds a checkout’s domain with its name, and only there', () => {
    const paths = [
      'data/tau2/domains/airline/policy.md',
      'src/tau2/domains/airline/tools.py',
      'data/tau2/domains/retail/policy.md',
    ];
    const found = gatherDomain('tau2', { label: 'x', name: 'tau2-bench', paths, read }, 'airline');
    if ('error' in found) throw new Error(found.error);
    expect(found.name).toBe('airline');
    expect([...found.paths.values()]).toEqual([
      'data/tau2/domains/airline/policy.md',
      'src/tau2/domains/airline/tools.py',
    ]);
    expect(domainFolders('tau2', 'airline')).toContain('src/tau2/domains/airline');
  });

  it('takes an IntellAgent input’s wiki, tools/*.py, data/*.csv and validators/*.py, nothing else', () => {
    const found = gatherDomain('intellagent', {
      label: 'x',
      name: 'gym',
      paths: INTELLAGENT,
      read,
    });
    if ('error' in found) throw new Error(found.error);
    expect([...found.files.keys()]).toEqual([
      'wiki.md',
      'data/members.csv',
      'tools/get_member.py',
      'validators/x.py',
    ]);
  });

  it('says in words when a folder holds none of the files', () => {
    const none = { label: 'my-folder', name: 'x', paths: ['readme.txt'], read };
    expect(gatherDomain('tau2', none)).toEqual({
      error: expect.stringContaining("my-folder holds none of a tau2 domain's files") as string,
    });
    expect(gatherDomain('intellagent', none)).toEqual({
      error: expect.stringContaining('wiki.md, tools/*.py, data/*.csv') as string,
    });
    expect(gatherDomain('tau2', none, 'airline')).toEqual({
      error: expect.stringContaining('no domain "airline"') as string,
    });
  });
});

describe('domainName', () => {
  it('is the folder’s name, or the one above an IntellAgent "input"', () => {
    expect(domainName('tau2', ['', 'work', 'retail'])).toBe('retail');
    expect(domainName('intellagent', ['examples', 'retail', 'input'])).toBe('retail');
    expect(domainName('tau2', ['examples', 'input'])).toBe('input');
    expect(domainName('tau2', [])).toBe('Imported domain');
  });
});
