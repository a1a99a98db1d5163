import type { RunningService } from '../scripts/services';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __services?: RunningService[] }).__services ?? [];
  for (const s of services.reverse()) await s.stop();
}
