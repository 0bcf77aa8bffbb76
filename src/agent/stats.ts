import type Docker from 'dockerode';
import { fromEngineError } from './errors.js';
import type { ContainerStats } from './protocol/schemas.js';

interface Sample {
  total: number;
  system: number;
  onlineCpus: number;
  memory: number;
  limit: number | null;
  pids: number | null;
  read: string;
}

function sample(stats: Docker.ContainerStats): Sample {
  const cpu = stats.cpu_stats;
  const perCpu = cpu.cpu_usage.percpu_usage?.length ?? 0;
  const memory = stats.memory_stats;
  // Docker reports page cache in usage; what the container really holds is usage minus it.
  const cache = memory.stats?.inactive_file ?? memory.stats?.total_inactive_file ?? 0;
  const limit = memory.limit;
  return {
    total: cpu.cpu_usage.total_usage,
    system: cpu.system_cpu_usage ?? 0,
    onlineCpus: cpu.online_cpus ?? perCpu,
    memory: Math.max(0, (memory.usage ?? 0) - cache),
    // A limit as large as the machine (or larger) means none was set.
    limit: typeof limit === 'number' && limit > 0 && limit < 2 ** 62 ? limit : null,
    pids: typeof stats.pids_stats?.current === 'number' ? stats.pids_stats.current : null,
    read: stats.read,
  };
}

/** CPU use between two samples `intervalMs` apart (100 = one core), and memory. */
export async function containerStats(
  docker: Docker,
  id: string,
  intervalMs = 300,
): Promise<ContainerStats> {
  const container = docker.getContainer(id);
  try {
    const first = sample(await container.stats({ stream: false }));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const second = sample(await container.stats({ stream: false }));
    const cpuDelta = second.total - first.total;
    const systemDelta = second.system - first.system;
    const cpus = second.onlineCpus || 1;
    const cpuPercent = cpuDelta > 0 && systemDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0;
    return {
      cpuPercent: Math.round(cpuPercent * 100) / 100,
      onlineCpus: second.onlineCpus,
      memoryBytes: second.memory,
      memoryLimitBytes: second.limit,
      memoryPercent:
        second.limit === null ? null : Math.round((second.memory / second.limit) * 10000) / 100,
      pids: second.pids,
      readAt: new Date().toISOString(),
    };
  } catch (error) {
    throw fromEngineError(error, `container ${id}`);
  }
}
