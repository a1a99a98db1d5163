/**
 * The layers, enforced in CI (`npm run lint`; docs/architecture.md draws them). From the bottom: shared/ (pure
 * rules and contracts) ← infra/ (plumbing and storage techniques) and providers/ (a port and its adapters per
 * provider) ← stores/ (a store per aggregate, the only code that sees its collections) ← operations/ (what
 * happens when: the use cases the API, the pages and the worker all run) ← activities/ (side effects), api/
 * (HTTP) and web/ (the pages people open), which reach providers through their ports ← worker/ (the Temporal
 * worker) ← composition/ (the one place stores, use cases and adapters are built and wired) ← main.ts.
 * workflows/ stand apart: deterministic code that sees only @temporalio/workflow, shared/ and the types of
 * their activities.
 */
const OURS = '^(api|web|activities|operations|stores|providers|infra|shared|workflows|worker|composition|scripts|test)/|^main\\.ts$';
const ABOVE_THE_FEATURES = '^(api|web|activities|operations|stores|worker|composition|scripts|test)/|^main\\.ts$';

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
      comment: 'infra/ serves api/ and activities/; of ours it imports only shared/.',
      from: { path: '^infra/' },
      to: { path: ABOVE_THE_FEATURES + '|^(providers|workflows)/' },
    },
    {
      name: 'stores-are-below-the-features',
      severity: 'error',
      comment: 'stores/ (a store per aggregate) stand on infra/ and shared/, and serve operations/, api/, web/ and activities/.',
      from: { path: '^stores/' },
      to: { path: '^(api|web|activities|operations|worker|composition|scripts|test|workflows)/|^main\\.ts$' },
    },
    {
      name: 'stores-keep-providers-records-by-type',
      severity: 'error',
      comment: "A store keeps what an offline provider keeps (the simulator's calls): it names the provider's types only.",
      from: { path: '^stores/' },
      to: { path: '^providers/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-stores-see-the-database',
      severity: 'error',
      comment:
        'Every collection is behind its store: only stores/, infra/ and composition/ (and the entry points, scripts and tests) name the database, even as a type; nothing else can read or write a collection, or build a store.',
      from: { pathNot: '^(stores|infra|composition|scripts|test)/|^main\\.ts$' },
      to: { path: '^infra/database\\.ts$' },
    },
    {
      name: 'only-stores-use-the-driver',
      severity: 'error',
      comment: 'The MongoDB driver is storage: the layers above the stores never import it.',
      from: { path: '^(api|web|activities|operations|workflows|worker|providers|shared)/' },
      to: { path: 'node_modules/mongodb/' },
    },
    {
      name: 'operations-are-below-the-features',
      severity: 'error',
      comment: "operations/ (the use cases) stand on stores/, and serve api/, web/ and activities/, never each other's side.",
      from: { path: '^operations/' },
      to: { path: '^(api|web|activities|worker|composition|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'only-stores-change-resources',
      severity: 'error',
      comment:
        "A call, an interview or a project changes only through its store: the lists' writers and the events' recording are the stores' alone (their types may be named anywhere).",
      from: { pathNot: '^(stores|composition|scripts|test)/|^infra/(lists|webhooks|views)/' },
      to: {
        path: '^infra/lists/(item-list|calls|interviews|projects)\\.ts$|^infra/webhooks/(events|resources)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'providers-are-below-the-features',
      severity: 'error',
      comment: 'A provider adapter knows its port and shared/; storage it needs comes in through its port.',
      from: { path: '^providers/' },
      to: { path: ABOVE_THE_FEATURES + '|^(workflows|infra)/' },
    },
    {
      name: 'activities-are-below-the-api-and-worker',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|web|worker|composition|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'api-is-below-the-composition',
      severity: 'error',
      comment: 'The API reaches providers through their ports, never through activities.',
      from: { path: '^api/' },
      to: { path: '^(activities|worker|composition|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'pages-are-a-room-of-their-own',
      severity: 'error',
      comment: 'web/ renders HTML from shared/, infra/ and provider ports; the JSON API and the pages never import each other.',
      from: { path: '^web/' },
      to: { path: '^(api|activities|worker|composition|scripts|test)/|^main\\.ts$' },
    },
    {
      name: 'one-way-to-the-workflows',
      severity: 'error',
      comment:
        "The API, the pages and the use cases reach Temporal only through the WorkflowPort (operations/deps.ts), which composition/workflow-port.ts implements: never the workflows' code or Temporal's client.",
      from: { path: '^(api|web|operations)/' },
      to: { path: '^workflows/|node_modules/@temporalio/(client|workflow|worker)/' },
    },
    {
      name: 'the-api-renders-no-pages',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^web/' },
    },
    {
      name: 'features-use-provider-ports',
      severity: 'error',
      comment:
        "api/, web/, operations/ and activities/ see a provider through its port; vapi-reports reads Vapi's inbound messages, vapi-call-backs answers its call-backs.",
      from: { path: '^(api|web|activities|operations)/' },
      to: {
        path: '^providers/',
        pathNot: '^providers/[a-z]+/port\\.ts$|^providers/voice/vapi-(reports|call-backs)\\.ts$|^providers/whatsapp/webhook\\.ts$',
      },
    },
    {
      name: 'worker-is-below-the-composition',
      severity: 'error',
      from: { path: '^worker/' },
      to: { path: '^(api|web|composition|scripts|test)/|^main\\.ts$' },
    },
    { name: 'nothing-ships-test-code', severity: 'error', from: { pathNot: '^(test|scripts)/' }, to: { path: '^(test|scripts)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
