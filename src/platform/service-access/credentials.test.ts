import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { checkedReturnUrl, serviceHost, serviceUrlOn } from '../routing/service-hosts.js';
import { readScriptCredential } from './script-credentials.js';

const KEY = `spk_${'a'.repeat(43)}`;
const SESSION = `ses_${'b'.repeat(43)}`;

describe('script credentials', () => {
  it('prefer X-Service-Token, and always take it out', () => {
    expect(readScriptCredential({ 'x-service-token': KEY })).toEqual({
      kind: 'key',
      token: KEY,
      remove: ['x-service-token'],
    });
    expect(
      readScriptCredential({ 'x-service-token': ` ${KEY} `, authorization: 'Bearer theirs' }),
    ).toEqual({ kind: 'key', token: KEY, remove: ['x-service-token'] });
    for (const bad of ['', 'abc', SESSION, `Bearer ${KEY}`, [KEY, KEY]]) {
      expect(readScriptCredential({ 'x-service-token': bad })).toEqual({
        kind: 'malformed',
        remove: ['x-service-token'],
      });
    }
  });

  it('take a platform key or session from Authorization, and leave any other bearer', () => {
    expect(readScriptCredential({ authorization: `bearer  ${KEY}` })).toEqual({
      kind: 'key',
      token: KEY,
      remove: ['authorization'],
    });
    expect(readScriptCredential({ authorization: `Bearer ${SESSION}` })).toEqual({
      kind: 'session',
      remove: ['authorization'],
    });
    for (const theirs of ['Bearer eyJhbGciOi.x.y', 'Basic dXNlcjpwdw==', 'Bearer spk_short']) {
      expect(readScriptCredential({ authorization: theirs })).toEqual({ kind: 'none', remove: [] });
    }
    expect(readScriptCredential({})).toEqual({ kind: 'none', remove: [] });
  });
});

describe('service hosts for sign-in', () => {
  const config = loadConfig({
    PUBLIC_URL: 'https://sparrow.example.com',
    SERVICE_DOMAIN: 'apps.example.com',
  });
  const id = '0190a4c2-1111-7000-8000-00000000abcd';

  it('build the service’s URLs with the service URLs’ scheme and port', () => {
    expect(serviceHost(config, id)).toBe(`svc-${id}.apps.example.com`);
    expect(serviceUrlOn(config, `svc-${id}.apps.example.com`, '/a?b=c')).toBe(
      `https://svc-${id}.apps.example.com/a?b=c`,
    );
    const local = loadConfig({ PORT: '3000' });
    expect(serviceUrlOn(local, `SVC-${id}.svc.localhost:3000`, '/')).toBe(
      `http://svc-${id}.svc.localhost:3000/`,
    );
  });

  it('accept a return URL on the service’s own hosts only', () => {
    const hosts = [serviceHost(config, id), 'shop.example.org'];
    expect(checkedReturnUrl(`https://svc-${id}.apps.example.com/x`, hosts)?.pathname).toBe('/x');
    expect(checkedReturnUrl('http://SHOP.example.org:8080/', hosts)?.host).toBe(
      'shop.example.org:8080',
    );
    for (const bad of [
      'https://example.com/',
      `https://svc-${id}.apps.example.com.evil.test/`,
      'ftp://shop.example.org/',
      'https://a:b@shop.example.org/',
      '/relative',
      'not a url',
    ]) {
      expect(checkedReturnUrl(bad, hosts), bad).toBeUndefined();
    }
  });
});
