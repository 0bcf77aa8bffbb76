import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { hostName, mayBeCustomDomain, serviceIdOfHost, serviceUrl } from './hosts.js';

const ID = '0190a4c2-1111-7000-8000-00000000abcd';

describe('service hosts', () => {
  it('reads the Host name without its port, case or trailing dot', () => {
    expect(hostName(`SVC-${ID}.Svc.Localhost:8080`)).toBe(`svc-${ID}.svc.localhost`);
    expect(hostName('shop.example.com.')).toBe('shop.example.com');
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName(undefined)).toBeNull();
    expect(hostName('')).toBeNull();
  });

  it('finds the service id of svc-{id} directly under the service domain only', () => {
    expect(serviceIdOfHost(`svc-${ID}.svc.localhost`, 'svc.localhost')).toBe(ID);
    expect(serviceIdOfHost(`svc-${ID}.svc.example.com`, 'svc.localhost')).toBeNull();
    expect(serviceIdOfHost(`a.svc-${ID}.svc.localhost`, 'svc.localhost')).toBeNull();
    expect(serviceIdOfHost('svc-nope.svc.localhost', 'svc.localhost')).toBeNull();
    expect(serviceIdOfHost('svc.localhost', 'svc.localhost')).toBeNull();
  });

  it('looks up custom domains only for names that could be one', () => {
    const own = new Set(['api.example.com']);
    expect(mayBeCustomDomain('shop.example.com', own)).toBe(true);
    expect(mayBeCustomDomain('api.example.com', own)).toBe(false);
    expect(mayBeCustomDomain('127.0.0.1', own)).toBe(false);
    expect(mayBeCustomDomain('[::1]', own)).toBe(false);
    expect(mayBeCustomDomain('localhost', own)).toBe(false);
    expect(mayBeCustomDomain('app.localhost', own)).toBe(false);
    expect(mayBeCustomDomain('intranet', own)).toBe(false);
  });

  it("builds the URL from SERVICE_DOMAIN and PUBLIC_URL's scheme and port, or their own settings", () => {
    const byDefault = loadConfig({ PORT: '8080' }).serviceUrls;
    expect(serviceUrl(byDefault, ID)).toBe(`http://svc-${ID}.svc.localhost:8080`);
    const behindTls = loadConfig({
      PUBLIC_URL: 'https://sparrow.example.com',
      SERVICE_DOMAIN: 'Apps.Example.com',
    }).serviceUrls;
    expect(serviceUrl(behindTls, ID)).toBe(`https://svc-${ID}.apps.example.com`);
    const explicit = loadConfig({
      PUBLIC_URL: 'http://localhost:8080',
      SERVICE_URL_SCHEME: 'https',
      SERVICE_URL_PORT: '8443',
    }).serviceUrls;
    expect(serviceUrl(explicit, ID)).toBe(`https://svc-${ID}.svc.localhost:8443`);
    expect(() => loadConfig({ SERVICE_DOMAIN: 'not a domain' })).toThrow(/SERVICE_DOMAIN/);
  });
});
