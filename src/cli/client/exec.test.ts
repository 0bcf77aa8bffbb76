/**
 * `sparrow workers create --wait` and `sparrow exec` (the real program, as a
 * process) against a server with a node on the real container engine.
 */
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTestEngine, describeEngine } from '../../../test/helpers/engine.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { run } from '../../../test/helpers/sparrow-process.js';

describeEngine('sparrow workers create and exec', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  const cli = (args: string[], input?: string) =>
    run(args, { SPARROW_URL: bed.baseUrl, SPARROW_TOKEN: bed.owner.token }, input);

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
    await onlineNode(bed, docker);
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  it('spawns a worker and waits for it; exec passes the output and the exit status through', async () => {
    const project = await cli(['projects', 'create', 'cli', '--org', bed.org.id]);
    expect(project.code, project.stderr).toBe(0);
    const created = await cli(['workers', 'create', '--project', 'cli', '--wait', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const worker = JSON.parse(created.stdout) as { id: string; name: string; state: string };
    expect(worker.state).toBe('ready');

    const listed = await cli(['workers', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`^${worker.id}\\s+${worker.name}\\s+ready\\b`, 'm'));

    const failing = await cli([
      'exec',
      worker.name,
      '--',
      'sh',
      '-c',
      'echo out; echo err >&2; exit 7',
    ]);
    expect(failing).toEqual({ code: 7, stdout: 'out\n', stderr: 'err\n' });
    const fine = await cli(['exec', worker.id, '--', 'printf', '%s|', 'two words', '--flag']);
    expect(fine).toEqual({ code: 0, stdout: 'two words|--flag|', stderr: '' });
    const piped = await cli(['exec', worker.id, '--stdin', '--', 'wc', '-l'], 'one\ntwo\n');
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.trim()).toBe('2');

    const stopped = await cli(['workers', 'stop', worker.id, '--wait']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain(': stopped');
    const refused = await cli(['exec', worker.id, '--', 'true']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error: .+ \([a-z_]+\)\n$/);

    const deleted = await cli(['workers', 'delete', worker.id, '--wait']);
    expect(deleted.code, deleted.stderr).toBe(0);
  });
});
