// Completes package-lock.json with the other platforms' builds of native packages (@swc/core, unrs-resolver).
//
// Why: npm writes into the lock only the optional dependencies it could resolve, and the registry this
// project is built against serves the Linux x64 and arm64 builds alone. A lock without the others fails
// `npm ci` everywhere ("Missing: @swc/core-darwin-arm64@ from lock file"), since npm ci checks that every
// declared dependency has an entry. An entry needs only the version and the platform npm matches it
// against; on a machine of another platform npm then resolves it from the registry, as it would have.
//
//   node scripts/lock-platforms.mjs          completes the lock in place
//   node scripts/lock-platforms.mjs --check  exits 1 when an entry is missing
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32'];
const CPU = ['arm', 'arm64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'x64'];

/** `@swc/core-linux-arm64-musl` → os linux, cpu arm64, libc musl; the naming every napi-rs package uses. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  for (let i = 0; i + 1 < parts.length; i++) {
    if (!OS.includes(parts[i]) || !CPU.includes(parts[i + 1])) continue;
    const abi = parts[i + 2] ?? '';
    const libc = abi.startsWith('musl') ? ['musl'] : parts[i] === 'linux' && abi.startsWith('gnu') ? ['glibc'] : undefined;
    return { os: [parts[i]], cpu: [parts[i + 1]], ...(libc ? { libc } : {}) };
  }
  return null;
}

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
/** npm looks a dependency up beside its dependant, then in each node_modules above it. */
function resolves(at, name) {
  for (let dir = at; ; dir = dir.replace(/\/?node_modules\/(?:@[^/]+\/)?[^/]+$/, '')) {
    if (`${dir ? `${dir}/` : ''}node_modules/${name}` in packages) return true;
    if (!dir) return false;
  }
}
const missing = [];
for (const [at, pkg] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (!resolves(at, name)) missing.push({ name, version, dev: pkg.dev });
  }
}
if (process.argv.includes('--check')) {
  for (const m of missing) console.error(`package-lock.json has no entry for ${m.name}@${m.version}`);
  process.exit(missing.length ? 1 : 0);
}
for (const { name, version, dev } of missing) {
  const platform = platformOf(name);
  if (!platform) throw new Error(`${name}: not a platform build this script knows how to describe`);
  packages[`node_modules/${name}`] = { version, ...(dev ? { dev } : {}), optional: true, ...platform };
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${missing.length} entries`);
