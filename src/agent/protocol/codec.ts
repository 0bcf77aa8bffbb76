import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import {
  type AgentMessage,
  HelloMessage,
  InputPauseMessage,
  InputResumeMessage,
  InventoryMessage,
  RequestMessage,
  ResponseMessage,
  type ServerMessage,
  StreamCloseMessage,
  StreamDataMessage,
  StreamEndMessage,
  StreamInputMessage,
  StreamPauseMessage,
  StreamResizeMessage,
  StreamResumeMessage,
  WelcomeMessage,
} from './messages.js';
import { type MethodName, methods, type ParamsOf, type ResultOf } from './methods.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

function describe(validator: Validator, value: unknown): string {
  const [first] = validator.Errors(value);
  if (first === undefined) return 'invalid';
  return `${first.instancePath === '' ? '/' : first.instancePath} ${first.message}`;
}

function check<T>(validator: Validator, value: unknown): Checked<T> {
  // Check is a type guard for the validator's own type, which T names.
  if (validator.Check(value)) return { ok: true, value: value as T };
  return { ok: false, error: describe(validator, value) };
}

function compileAll(schemas: Record<string, TSchema>): Map<string, Validator> {
  return new Map(Object.entries(schemas).map(([key, schema]) => [key, Compile(schema)]));
}

const agentMessages = compileAll({
  hello: HelloMessage,
  response: ResponseMessage,
  'stream.data': StreamDataMessage,
  'stream.end': StreamEndMessage,
  'stream.pause': InputPauseMessage,
  'stream.resume': InputResumeMessage,
  inventory: InventoryMessage,
});

const serverMessages = compileAll({
  welcome: WelcomeMessage,
  request: RequestMessage,
  'stream.input': StreamInputMessage,
  'stream.resize': StreamResizeMessage,
  'stream.close': StreamCloseMessage,
  'stream.pause': StreamPauseMessage,
  'stream.resume': StreamResumeMessage,
});

const paramValidators = new Map(
  Object.entries(methods).map(([name, spec]) => [name, Compile(spec.params)]),
);
const resultValidators = new Map(
  Object.entries(methods).map(([name, spec]) => [name, Compile(spec.result)]),
);

function decode<T>(validators: Map<string, Validator>, text: string): Checked<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || !('type' in value)) {
    return { ok: false, error: 'not an object with a type' };
  }
  const validator = typeof value.type === 'string' ? validators.get(value.type) : undefined;
  if (validator === undefined) return { ok: false, error: `unknown type ${String(value.type)}` };
  const checked = check<T>(validator, value);
  return checked.ok ? checked : { ok: false, error: `${String(value.type)}: ${checked.error}` };
}

/** Parses and validates one text frame the agent received from the server. */
export function decodeServerMessage(text: string): Checked<ServerMessage> {
  return decode<ServerMessage>(serverMessages, text);
}

/** Parses and validates one text frame the server received from an agent. */
export function decodeAgentMessage(text: string): Checked<AgentMessage> {
  return decode<AgentMessage>(agentMessages, text);
}

export function checkParams<M extends MethodName>(
  method: M,
  params: unknown,
): Checked<ParamsOf<M>> {
  const validator = paramValidators.get(method);
  if (validator === undefined) return { ok: false, error: `unknown method ${method}` };
  return check<ParamsOf<M>>(validator, params);
}

export function checkResult<M extends MethodName>(
  method: M,
  result: unknown,
): Checked<ResultOf<M>> {
  const validator = resultValidators.get(method);
  if (validator === undefined) return { ok: false, error: `unknown method ${method}` };
  return check<ResultOf<M>>(validator, result);
}

export function encodeMessage(message: AgentMessage | ServerMessage): string {
  return JSON.stringify(message);
}
