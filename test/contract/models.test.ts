import { builtinModelModules, type BuiltinModelId } from '../../plugins/models/index.js';
import changePoint from '../../plugins/models/change-point.js';
import deltaIqr from '../../plugins/models/delta-iqr.js';
import iqr from '../../plugins/models/iqr.js';
import logNormal from '../../plugins/models/log-normal.js';
import percentage from '../../plugins/models/percentage.js';
import staticModel from '../../plugins/models/static.js';
import tTest from '../../plugins/models/t-test.js';
import zScore from '../../plugins/models/z-score.js';
import type { ModelPlugin } from '../../core/index.js';
import { afterAll } from 'vitest';
import { describeModelContract, type ModelContractOptions } from '../../kit/testing.js';
import { createTestPool } from '../../kit/testing/model.js';

const probability = (id: string) => [
  {
    params: { upper_boundary: 1.2 },
    message: `threshold upper_boundary must be in [0.5, 1.0) for ${id}, got 1.2`,
  },
  {
    params: { lower_boundary: 0.3 },
    message: `threshold lower_boundary must be in [0.5, 1.0) for ${id}, got 0.3`,
  },
];
const multiplier = (id: string) => [
  {
    params: { upper_boundary: -0.5 },
    message: `threshold upper_boundary must be at least 0 for ${id}, got -0.5`,
  },
  {
    params: { upper_boundary: 1, min_sample_size: 9, max_sample_size: 8 },
    message: `threshold min_sample_size must not exceed max_sample_size (8) for ${id}, got 9`,
  },
];

const cases: [BuiltinModelId, ModelPlugin, Omit<ModelContractOptions, 'module'>][] = [
  [
    'static',
    staticModel,
    {
      params: { lower_boundary: 90, upper_boundary: 110 },
      minSamples: 1,
      constantHistory: 'limits',
      invalidParams: [
        { params: { lower_boundary: 5, upper_boundary: 4 }, message: 'must not exceed upper_boundary (4)' },
        { params: { upper_boundary: 5, max_sample_size: 64 }, message: 'max_sample_size must not be set' },
      ],
    },
  ],
  [
    'percentage',
    percentage,
    {
      params: { lower_boundary: 0.1, upper_boundary: 0.1 },
      minSamples: 1,
      constantHistory: 'limits',
      invalidParams: multiplier('percentage'),
    },
  ],
  ['z_score', zScore, { invalidParams: probability('z_score') }],
  ['t_test', tTest, { invalidParams: probability('t_test') }],
  ['log_normal', logNormal, { invalidParams: probability('log_normal') }],
  [
    'iqr',
    iqr,
    {
      params: { lower_boundary: 1.5, upper_boundary: 1.5 },
      minSamples: 1,
      constantHistory: 'limits',
      invalidParams: multiplier('iqr'),
    },
  ],
  [
    'delta_iqr',
    deltaIqr,
    {
      params: { lower_boundary: 1.5, upper_boundary: 1.5 },
      constantHistory: 'limits',
      invalidParams: multiplier('delta_iqr'),
    },
  ],
  ['change_point', changePoint, { invalidParams: probability('change_point') }],
];

const pool = createTestPool();
afterAll(() => pool.close());

for (const [id, plugin, options] of cases) {
  describeModelContract(plugin, { ...options, module: builtinModelModules[id], pool });
}
