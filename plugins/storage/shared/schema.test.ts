import { describe, expect, it } from 'vitest';
import { columnsOf } from './schema.js';

describe('the columns of the schema', () => {
  it('reads a table as its migrations make it, constraints left out', () => {
    expect(columnsOf('branch')).toEqual([
      'id',
      'uuid',
      'project_id',
      'name',
      'slug',
      'head_id',
      'archived',
      'created',
      'modified',
    ]);
    expect(columnsOf('head_version')).toEqual(['head_id', 'version_id']);
  });

  it('follows columns added later and tables dropped', () => {
    expect(columnsOf('alert').slice(-3)).toEqual(['change_before', 'change_after', 'change_p_value']);
    expect(columnsOf('measure')).toContain('direction');
    expect(() => columnsOf('organization_usage')).toThrow('the schema has no table organization_usage');
  });
});
