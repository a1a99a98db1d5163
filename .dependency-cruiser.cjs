/**
 * The layers, enforced in CI (`npm run lint`). From the bottom: shared/ (pure rules) ← infra/ (plumbing and
 * storage) and providers/ (a port and its adapters per provider) ← activities/ (side effects) and api/ (HTTP)
 * ← worker/ and main.ts (composition). workflows/ stand apart: deterministic code that sees only
 * @temporalio/workflow, shared/ and the types of their activities.
 */
const OURS = '^(api|activities|providers|infra|shared|workflows|worker|scripts|test)/|^main\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'No import cycles, type-only ones included.', from: {}, to: { circular: true } },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'shared/ holds pure domain logic: nothing of ours outside it, no Node built-ins.',
      from: { path: '^shared/' },
      to: { pathNot: '^shared/', path: OURS },
    },
    { name: 'shared-has-no-io', severity: 'error', from: { path: '^shared/' }, to: { dependencyTypes: ['core'] } },
    {
      name: 'workflows-are-deterministic',
      severity: 'error',
      comment: 'Workflow code imports @temporalio/workflow, shared/ and other workflow modules; activities by type only.',
      from: { path: '^workflows/' },
      to: { pathNot: '^(workflows|shared)/|node_modules/@temporalio/(workflow|common)/', dependencyTypesNot: ['type-only'] },
    },
    { name: 'workflows-use-no-node', severity: 'error', from: { path: '^workflows/' }, to: { dependencyTypes: ['core'] } },
    {
      name: 'infra-is-below-the-features',
      severity: 'error',
      comment: 'infra/ serves api/ and activities/ and imports neither, nor anything above them.',
      from: { path: '^infra/' },
      to: { path: '^(api|activities|worker|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'providers-are-below-the-features',
      severity: 'error',
      comment: 'A provider adapter knows its port, shared/ and infra/ (the log providers store what they would send).',
      from: { path: '^providers/' },
      to: { path: '^(api|activities|workflows|worker|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'activities-are-below-the-api-and-worker',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|worker|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'api-is-below-the-composition',
      severity: 'error',
      comment: 'The API reaches providers through providers/, never through activities.',
      from: { path: '^api/' },
      to: { path: '^(activities|worker|scripts|test)/|^main\\.ts$' },
    },
    { name: 'nothing-ships-test-code', severity: 'error', from: { pathNot: '^(test|scripts)/' }, to: { path: '^(test|scripts)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
