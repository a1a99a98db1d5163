/**
 * The modules test/setup/service-modules-environment.js loads once per jest worker, outside the files'
 * registries, where a file that imported them would load and run them again: the service's own (a stack
 * runs on them) and the API's contract check. Only types are imported here, so a file that reads them
 * loads none of them itself.
 */
export interface ServiceModules {
  service: typeof import('../../composition/service');
  runtime: typeof import('../../infra/temporal-runtime');
  /** The process's registry and metrics, which the stack's API and worker count in. */
  metrics: typeof import('../../infra/metrics');
  server: typeof import('../../api/server');
  temporal: typeof import('../../infra/temporal');
  /** The API's contract check (test/helpers/api-contract-checks.ts). */
  contract: typeof import('./api-contract-checks');
}

export function serviceModules(): ServiceModules {
  const load = (globalThis as { __serviceModules?: () => ServiceModules }).__serviceModules;
  if (!load) throw new Error("jest.config.js's testEnvironment loads the service's modules: test/setup/service-modules-environment.js");
  return load();
}
