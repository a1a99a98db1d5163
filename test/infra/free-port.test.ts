import { freePort } from '../../infra/free-port';

// Two listeners given ports before either starts (an API and its metrics) must not be given the same one:
// the kernel can hand a just-freed port to the next caller, and the second listener would die of EADDRINUSE.
test('freePort never names the same port twice in one process', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 300; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
  expect(ports.every((p) => p > 0 && p < 65536)).toBe(true);
});
