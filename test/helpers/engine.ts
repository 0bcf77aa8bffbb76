import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { describe } from 'vitest';
import {
  createEngine,
  describeEndpoint,
  parseDockerHost,
  SPARROW_PODMAN_SOCKET,
} from '../../src/agent/engine.js';

/** Built by scripts/podman/setup.sh from local root file systems. */
export const BUSYBOX_IMAGE = 'localhost/sparrow/busybox:v1';
export const WORKSPACE_IMAGE = 'localhost/sparrow/workspace:v2';

/**
 * Engine tests run against a real engine: DOCKER_HOST, else the socket the
 * setup script serves. They fail, loudly, when it is not there; set
 * SPARROW_SKIP_ENGINE_TESTS=1 to skip them on purpose (it is printed).
 */
export const describeEngine =
  process.env.SPARROW_SKIP_ENGINE_TESTS === '1' ? describe.skip : describe;

if (process.env.SPARROW_SKIP_ENGINE_TESTS === '1') {
  process.stderr.write('SPARROW_SKIP_ENGINE_TESTS=1: container engine tests are skipped\n');
}

export function testEngineEndpoint() {
  return parseDockerHost(process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`);
}

/** Connects and checks the engine answers and has the test images. */
export async function connectTestEngine(): Promise<Docker> {
  const endpoint = testEngineEndpoint();
  const docker = createEngine(endpoint);
  try {
    await docker.ping();
  } catch (error) {
    throw new Error(
      `No container engine answers at ${describeEndpoint(endpoint)} (${String(error)}). ` +
        'Run scripts/podman/setup.sh as root (CI does), or point DOCKER_HOST at an engine.',
    );
  }
  for (const image of [BUSYBOX_IMAGE, WORKSPACE_IMAGE]) {
    try {
      await docker.getImage(image).inspect();
    } catch {
      throw new Error(`Image ${image} is missing: run scripts/podman/setup.sh to build it.`);
    }
  }
  return docker;
}

/** A label value naming one test file's containers, so it removes only its own. */
export function testRunLabel(): Record<string, string> {
  return { 'sparrow.test': randomBytes(6).toString('hex') };
}

export async function removeLabelled(docker: Docker, labels: Record<string, string>) {
  const filters = { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) };
  const containers = await docker.listContainers({ all: true, filters });
  await Promise.all(
    containers.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {}),
    ),
  );
}

/** Polls until `check` returns a value that is not undefined, or throws after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`);
}
