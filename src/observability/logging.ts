import type { TransportSingleOptions } from 'pino';
import type { Config } from '../config.js';

/** Whether log lines are written for people: LOG_FORMAT, else whether stdout is a terminal. */
export function prettyLogs(
  config: Pick<Config, 'logFormat'>,
  isTTY = process.stdout.isTTY,
): boolean {
  if (config.logFormat === 'auto') return isTTY === true;
  return config.logFormat === 'pretty';
}

/**
 * The logger's transport: pino-pretty (in a worker thread) for people, none
 * (one JSON object a line, written synchronously) for log collectors.
 */
export function loggerTransport(config: Pick<Config, 'logFormat' | 'logLevel'>): {
  transport?: TransportSingleOptions;
} {
  if (config.logLevel === 'silent' || !prettyLogs(config)) return {};
  return {
    transport: {
      target: 'pino-pretty',
      options: {
        translateTime: 'SYS:HH:MM:ss.l',
        singleLine: true,
        // A request on one line: `incoming request GET /health`, `request completed GET /health 200`.
        messageFormat:
          '{msg}{if req.method} {req.method} {req.url}{end}{if res.statusCode} {res.statusCode}{end}',
        ignore: 'pid,hostname,req,res,responseTime',
      },
    },
  };
}
