import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * What a first `docker compose up` puts on the internet, read from docker-compose.yml itself (no Docker engine
 * here): only the API's port, MongoDB with authentication as a replica set, no password with a default, and
 * Temporal's server with its schema set up by a one-shot admin-tools service.
 */
const ROOT = join(__dirname, '..', '..');
const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
type Service = {
  image?: string;
  profiles?: string[];
  volumes?: string[];
  build?: unknown;
  ports?: string[];
  command?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
};
const compose = parse(text, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;

describe('docker-compose.yml', () => {
  it('publishes the API alone; anything else is bound to 127.0.0.1', () => {
    const published = Object.entries(services).flatMap(([name, s]) => (s.ports ?? []).map((p) => [name, String(p)] as const));
    expect(published.filter(([name]) => name !== 'api').map(([name, p]) => [name, p.startsWith('127.0.0.1:')])).toEqual(
      published.filter(([name]) => name !== 'api').map(([name]) => [name, true]),
    );
    expect(published.filter(([name]) => name === 'api')).toEqual([['api', '${API_PORT:-3000}:3000']]);
    for (const name of ['temporal', 'mongodb', 'postgresql'])
      expect({ name, ports: services[name].ports }).toEqual({ name, ports: undefined });
  });

  it('gives no password, secret or token a literal default: required ones are ${VAR:?…}, optional ones empty', () => {
    // A setting read under its earlier name too, `${NEW:-${EARLIER:?…}}`, is required under its new name.
    const earlierNames: Record<string, string> = { CONTACT_HASH_SECRET: 'PERSON_HASH_SECRET' };
    const read = text.replace(
      /\$\{([A-Z0-9_]+):-\$\{([A-Z0-9_]+):\?([^}]*)\}\}/g,
      (whole, name: string, earlier: string, message: string) => {
        expect(earlierNames[earlier]).toBe(name);
        return `\${${name}:?${message}}`;
      },
    );
    const references = [...read.matchAll(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g)].map(([, name, op, rest]) => ({ name, op, rest }));
    const secret = /PASSWORD|PWD|SECRET|TOKEN|_KEY$/;
    const defaulted = references.filter((r) => secret.test(r.name) && r.op !== '?' && r.rest !== '');
    expect(defaulted).toEqual([]);
    const required = references.filter((r) => r.op === '?').map((r) => r.name);
    expect([...new Set(required)].sort()).toEqual(['MONGODB_PASSWORD', 'MONGODB_ROOT_PASSWORD', 'PERSON_HASH_SECRET', 'POSTGRES_PASSWORD']);
    // Nothing literal where a password goes.
    const passwords = Object.values(services).flatMap((svc) =>
      Object.entries(svc.environment ?? {}).filter(([k]) => /PASSWORD|PWD/.test(k)),
    );
    expect(passwords.length).toBeGreaterThan(0);
    expect(passwords.filter(([, v]) => !/^\$\{[A-Z_]+:\?[^}]+\}$/.test(v))).toEqual([]);
    // .env.example names every required one, and git keeps no .env.
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    for (const name of required) expect(example).toMatch(new RegExp(`^${name}=$`, 'm'));
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8')).toMatch(/^\.env$/m);
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8')).toMatch(/^\.env$/m);
  });

  it('runs MongoDB with authentication as a one-member replica set, and the service as its own user', () => {
    const mongodb = services.mongodb;
    expect(mongodb.command).toEqual(expect.arrayContaining(['--replSet', 'rs0', '--keyFile']));
    expect(mongodb.environment?.MONGO_INITDB_ROOT_PASSWORD).toMatch(/^\$\{MONGODB_ROOT_PASSWORD:\?/);
    const uri = services.api.environment?.MONGODB_URI ?? '';
    expect(uri).toMatch(/^mongodb:\/\/hiring:\$\{MONGODB_PASSWORD:\?[^}]*\}@mongodb:27017\/hiring\?authSource=admin&replicaSet=rs0$/);
    expect(services.worker.environment?.MONGODB_URI).toBe(uri);
  });

  it('runs temporalio/server after a one-shot admin-tools schema setup, not the deprecated auto-setup', () => {
    expect(Object.values(services).filter((svc) => svc.image?.startsWith('temporalio/auto-setup'))).toEqual([]);
    expect(services.temporal.image).toMatch(/^temporalio\/server:/);
    expect(services.temporal.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(services['temporal-schema'].image).toMatch(/^temporalio\/admin-tools:/);
    for (const name of ['api', 'worker']) {
      expect(services[name].depends_on).toMatchObject({ 'temporal-namespace': { condition: 'service_completed_successfully' } });
    }
  });

  it('links the dashboard to the Temporal UI only when an operator sets TEMPORAL_UI_URL', () => {
    expect(services.api.environment?.TEMPORAL_UI_URL).toBe('${TEMPORAL_UI_URL:-}');
  });

  it('adds Prometheus, Grafana with the dashboard, a collector and Jaeger only with the observability profile', () => {
    const extra = ['prometheus', 'grafana', 'otel-collector', 'jaeger'];
    for (const name of extra) expect({ name, profiles: services[name].profiles }).toEqual({ name, profiles: ['observability'] });
    expect(Object.keys(services).filter((n) => services[n].profiles && !extra.includes(n))).toEqual([]);
    // Every file they mount is in the repository.
    const mounted = extra.flatMap((n) => (services[n].volumes ?? []).map((v) => v.split(':')[0]));
    expect(mounted.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(mounted).toEqual(expect.arrayContaining(['./deploy/prometheus/prometheus.yml', './deploy/grafana/hiring-integration.json']));
    // The processes' metrics reach Prometheus over the compose network, and tracing is off until an endpoint is set.
    expect(services.api.environment?.METRICS_HOST).toBe('0.0.0.0');
    expect(services.worker.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
  });
});
