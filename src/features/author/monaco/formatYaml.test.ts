import { describe, expect, it } from 'vitest';
import { formatYaml } from './formatYaml.ts';

describe('formatYaml', () => {
  it('re-indents a file and keeps its comments and values', () => {
    const messy =
      '# Tools\ntools:\n- name: get_user   # the lookup\n  kind:    read\n  parameters: {type: object}\n';
    expect(formatYaml(messy)).toBe(
      '# Tools\ntools:\n  - name: get_user # the lookup\n    kind: read\n    parameters: { type: object }\n',
    );
  });

  it('leaves text that is not YAML alone', () => {
    expect(formatYaml('tools: [')).toBeUndefined();
  });
});
