import { describe, expect, it } from 'vitest';
import { accountProblem, parseUserArgs, UserArgsError } from './user.js';

describe('sparrow user arguments', () => {
  it('reads the options, with a name from the address and a generated password by default', () => {
    expect(parseUserArgs(['create', '--email', ' Ada@Example.test '])).toEqual({
      help: false,
      email: 'Ada@Example.test',
      name: 'Ada',
      password: null,
      generate: true,
    });
    expect(
      parseUserArgs(['create', '--email=a@b.test', '--name', 'A B', '--password-stdin']),
    ).toMatchObject({ name: 'A B', password: null, generate: false });
    expect(
      parseUserArgs(['create', '--email', 'a@b.test', '--password', 'long enough pass']),
    ).toMatchObject({ password: 'long enough pass', generate: false });
    expect(parseUserArgs([]).help).toBe(true);
    expect(parseUserArgs(['create', '--help']).help).toBe(true);
  });

  it('refuses what it cannot use, saying which argument', () => {
    const cases: Array<[string[], RegExp]> = [
      [['create', '--password', 'long enough password'], /--email is required/],
      [['create', '--email', 'boss@example.test', '--admin'], /no instance administrator/],
      [['create', '--email', 'x@example.test', '--colour', 'red'], /Unknown option '--colour'/],
      [['create', '--email', 'x@example.test', '--password', 'p', '--password-stdin'], /not both/],
      [['remove', '--email', 'x@example.test'], /unknown subcommand "remove"/],
      [['create', 'stray'], /positional/],
    ];
    for (const [args, message] of cases) {
      expect(() => parseUserArgs(args), args.join(' ')).toThrow(UserArgsError);
      expect(() => parseUserArgs(args), args.join(' ')).toThrow(message);
    }
  });

  it('checks the account fields with the rules of registration', () => {
    const fine = { email: 'a@example.test', name: 'A', password: 'long enough password' };
    expect(accountProblem(fine)).toBeNull();
    expect(accountProblem({ ...fine, email: 'not-an-address' })).toMatch(/^--email: /);
    expect(accountProblem({ ...fine, password: 'short' })).toMatch(/^--password: /);
    expect(accountProblem({ ...fine, name: '' })).toMatch(/^--name: /);
  });
});
